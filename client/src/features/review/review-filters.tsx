/** The review queue's filters: rule, kind (screening or charge), screening type and age. */
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import type { ReviewFilters } from "../../../../shared/schemas/review.ts";
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";
import { FilterSelect } from "../../components/filter-select.tsx";

const AGES: [number, string][] = [
  [1, "Over 1 hour"],
  [24, "Over 1 day"],
  [24 * 7, "Over 1 week"],
];
const KINDS = [
  ["screening", "Screenings"],
  ["charge", "Charges"],
] as const;

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
      <FilterSelect
        label="Rule"
        name="rule"
        value={value.rule}
        options={[
          ...RULE_CATALOG.map((r) => [r.key, r.label] as const),
          ["risk_score", "Risk score"] as const,
        ]}
        onPick={(raw) => set("rule", raw)}
      />
      <FilterSelect
        label="Kind"
        name="kind"
        value={value.kind}
        options={KINDS}
        onPick={(raw) =>
          onChange({
            ...value,
            kind: (raw || undefined) as ReviewFilters["kind"],
            // A charge has no screening type: choosing charges clears the type.
            type: raw === "charge" ? undefined : value.type,
          })
        }
      />
      <FilterSelect
        label="Type"
        name="type"
        value={value.type}
        disabled={value.kind === "charge"}
        options={SCREEN_TYPES.map((t) => [t, t.replaceAll("_", " ")] as const)}
        onPick={(raw) => set("type", raw)}
      />
      <FilterSelect
        label="Age"
        name="older_than_hours"
        value={value.older_than_hours?.toString()}
        all="Any"
        options={AGES.map(([hours, text]) => [String(hours), text] as const)}
        onPick={(raw) => set("older_than_hours", raw)}
      />
    </form>
  );
}
