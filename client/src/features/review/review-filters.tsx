/** The review queue's filters: rule, kind (screening or charge), screening type and age. */
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import type { ReviewFilters } from "../../../../shared/schemas/review.ts";
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";

const AGES: [number, string][] = [
  [1, "Over 1 hour"],
  [24, "Over 1 day"],
  [24 * 7, "Over 1 week"],
];

export function QueueFilters({
  value,
  onChange,
}: {
  value: ReviewFilters;
  onChange: (f: ReviewFilters) => void;
}) {
  const set = (key: keyof ReviewFilters, raw: string) =>
    onChange({
      ...value,
      [key]: raw === "" ? undefined : key === "older_than_hours" ? Number(raw) : raw,
    });
  return (
    <form className="rv-filters" aria-label="Filter the queue" onSubmit={(e) => e.preventDefault()}>
      <label>
        Rule
        <select name="rule" value={value.rule ?? ""} onChange={(e) => set("rule", e.target.value)}>
          <option value="">All</option>
          {RULE_CATALOG.map((r) => (
            <option key={r.key} value={r.key}>
              {r.label}
            </option>
          ))}
          <option value="risk_score">Risk score</option>
        </select>
      </label>
      <label>
        Kind
        <select
          name="kind"
          value={value.kind ?? ""}
          onChange={(e) =>
            onChange({
              ...value,
              kind: (e.target.value || undefined) as ReviewFilters["kind"],
              // A charge has no screening type: choosing charges clears the type.
              type: e.target.value === "charge" ? undefined : value.type,
            })
          }
        >
          <option value="">All</option>
          <option value="screening">Screenings</option>
          <option value="charge">Charges</option>
        </select>
      </label>
      <label>
        Type
        <select
          name="type"
          value={value.type ?? ""}
          disabled={value.kind === "charge"}
          onChange={(e) => set("type", e.target.value)}
        >
          <option value="">All</option>
          {SCREEN_TYPES.map((t) => (
            <option key={t} value={t}>
              {t.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label>
        Age
        <select
          name="older_than_hours"
          value={value.older_than_hours ?? ""}
          onChange={(e) => set("older_than_hours", e.target.value)}
        >
          <option value="">Any</option>
          {AGES.map(([hours, text]) => (
            <option key={hours} value={hours}>
              {text}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
