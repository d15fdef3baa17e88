/** Decision, type and rule filters, and a search by email, user id or IP. */
import { useEffect, useState } from "react";
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import {
  DECISIONS,
  SCREEN_TYPES,
  type ScreeningListInput,
} from "../../../../shared/schemas/screening.ts";
import { DECISION_NAMES, formatType } from "./screening-format.ts";

export type Filters = Pick<ScreeningListInput, "decision" | "type" | "rule" | "search">;

/** How long typing pauses before the search runs, so each keystroke is not a query. */
const SEARCH_DELAY_MS = 300;

export function ScreeningFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (filters: Filters) => void;
}) {
  const [search, setSearch] = useState(value.search ?? "");
  useEffect(() => {
    const term = search.trim() || undefined;
    if (term === value.search) return;
    const timer = setTimeout(() => onChange({ ...value, search: term }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, value, onChange]);

  const pick = (key: "decision" | "type" | "rule", raw: string) =>
    onChange({ ...value, [key]: raw === "" ? undefined : raw });
  const select = (
    key: "decision" | "type" | "rule",
    label: string,
    options: [string, string][],
  ) => (
    <label>
      {label}
      <select
        name={key}
        value={value[key] ?? ""}
        onChange={(event) => pick(key, event.target.value)}
      >
        <option value="">All</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <form
      className="sc-filters"
      aria-label="Filter screenings"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        Search
        <input
          type="search"
          name="search"
          placeholder="Email, user ID or IP"
          autoComplete="off"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      {select(
        "decision",
        "Decision",
        DECISIONS.map((d) => [d, DECISION_NAMES[d]]),
      )}
      {select(
        "type",
        "Type",
        SCREEN_TYPES.map((t) => [t, formatType(t)]),
      )}
      {select(
        "rule",
        "Rule",
        RULE_CATALOG.map((r) => [r.key, r.label]),
      )}
    </form>
  );
}

export function hasFilters(filters: Filters): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== "");
}
