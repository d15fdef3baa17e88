import {
  BLOCKED_BY_FILTERS,
  type DashboardFilters,
  OUTCOMES,
  RISK_LEVELS,
} from "../../../../shared/schemas/transaction.ts";
import { SearchField } from "../../components/search-field.tsx";

const BLOCKED_BY_NAMES: Record<(typeof BLOCKED_BY_FILTERS)[number], string> = {
  stripe: "Stripe",
  custom_rule: "Custom Rule",
  none: "Not blocked",
};

export function TransactionFilters({
  value,
  onChange,
}: {
  value: DashboardFilters;
  onChange: (filters: DashboardFilters) => void;
}) {
  const pick = <K extends keyof DashboardFilters>(key: K, raw: string) =>
    onChange({ ...value, [key]: raw === "" ? undefined : raw });

  return (
    <form
      className="tx-filters"
      aria-label="Filter transactions"
      onSubmit={(e) => e.preventDefault()}
    >
      <SearchField
        value={value.search}
        placeholder="Email or charge ID"
        onSearch={(search) => onChange({ ...value, search })}
      />
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
