import {
  BLOCKED_BY_FILTERS,
  type DashboardFilters,
  OUTCOMES,
  RISK_LEVELS,
} from "../../../../shared/schemas/transaction.ts";
import { FilterSelect } from "../../components/filter-select.tsx";
import { SearchField } from "../../components/search-field.tsx";

const BLOCKED_BY_NAMES: Record<(typeof BLOCKED_BY_FILTERS)[number], string> = {
  stripe: "Stripe",
  // Every rule is one of Warden's own: none is "custom" to the person reading.
  custom_rule: "Warden's rules",
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
      <FilterSelect
        label="Outcome"
        name="outcome"
        value={value.outcome}
        options={OUTCOMES.map((outcome) => [outcome, outcome] as const)}
        onPick={(raw) => pick("outcome", raw)}
      />
      <FilterSelect
        label="Risk level"
        name="riskLevel"
        value={value.riskLevel}
        options={RISK_LEVELS.map((level) => [level, level] as const)}
        onPick={(raw) => pick("riskLevel", raw)}
      />
      <FilterSelect
        label="Blocked by"
        name="blockedBy"
        value={value.blockedBy}
        options={BLOCKED_BY_FILTERS.map((key) => [key, BLOCKED_BY_NAMES[key]] as const)}
        onPick={(raw) => pick("blockedBy", raw)}
      />
    </form>
  );
}

export function hasFilters(filters: DashboardFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== "");
}
