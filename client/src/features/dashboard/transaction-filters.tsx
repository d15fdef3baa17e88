import { useEffect, useState } from "react";
import {
  BLOCKED_BY_FILTERS,
  type DashboardFilters,
  OUTCOMES,
  RISK_LEVELS,
} from "../../../../shared/schemas/transaction.ts";

const BLOCKED_BY_NAMES: Record<(typeof BLOCKED_BY_FILTERS)[number], string> = {
  stripe: "Stripe",
  custom_rule: "Custom Rule",
  none: "Not blocked",
};

/** How long typing pauses before the search runs, so each keystroke is not a query. */
const SEARCH_DELAY_MS = 300;

export function TransactionFilters({
  value,
  onChange,
}: {
  value: DashboardFilters;
  onChange: (filters: DashboardFilters) => void;
}) {
  const [search, setSearch] = useState(value.search ?? "");
  useEffect(() => {
    const term = search.trim() || undefined;
    if (term === value.search) return;
    const timer = setTimeout(() => onChange({ ...value, search: term }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, value, onChange]);

  const pick = <K extends keyof DashboardFilters>(key: K, raw: string) =>
    onChange({ ...value, [key]: raw === "" ? undefined : raw });

  return (
    <form
      className="tx-filters"
      aria-label="Filter transactions"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        Search
        <input
          type="search"
          name="search"
          placeholder="Email or charge ID"
          autoComplete="off"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      <label>
        Outcome
        <select
          name="outcome"
          value={value.outcome ?? ""}
          onChange={(event) => pick("outcome", event.target.value)}
        >
          <option value="">All</option>
          {OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcome}
            </option>
          ))}
        </select>
      </label>
      <label>
        Risk level
        <select
          name="riskLevel"
          value={value.riskLevel ?? ""}
          onChange={(event) => pick("riskLevel", event.target.value)}
        >
          <option value="">All</option>
          {RISK_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </label>
      <label>
        Blocked by
        <select
          name="blockedBy"
          value={value.blockedBy ?? ""}
          onChange={(event) => pick("blockedBy", event.target.value)}
        >
          <option value="">All</option>
          {BLOCKED_BY_FILTERS.map((key) => (
            <option key={key} value={key}>
              {BLOCKED_BY_NAMES[key]}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

export function hasFilters(filters: DashboardFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== "");
}
