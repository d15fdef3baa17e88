/**
 * Decision, type and rule filters, and a search by part of an email or domain, the start of a
 * user id or an IP (203.0.113.), or a whole IP address.
 */
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import {
  DECISIONS,
  SCREEN_TYPES,
  type ScreeningListInput,
} from "../../../../shared/schemas/screening.ts";
import { FilterSelect } from "../../components/filter-select.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { DECISION_NAMES, formatType } from "./screening-format.ts";

export type Filters = Pick<ScreeningListInput, "decision" | "type" | "rule" | "search">;

export function ScreeningFilters({
  value,
  onChange,
}: {
  value: Filters;
  onChange: (filters: Filters) => void;
}) {
  const pick = (key: "decision" | "type" | "rule", raw: string) =>
    onChange({ ...value, [key]: raw === "" ? undefined : raw });
  const select = (
    key: "decision" | "type" | "rule",
    label: string,
    options: [string, string][],
  ) => (
    <FilterSelect
      label={label}
      name={key}
      value={value[key]}
      options={options}
      onPick={(raw) => pick(key, raw)}
    />
  );

  return (
    <form
      className="sc-filters"
      aria-label="Filter screenings"
      onSubmit={(e) => e.preventDefault()}
    >
      <SearchField
        value={value.search}
        placeholder="Email, domain, user ID or IP"
        onSearch={(search) => onChange({ ...value, search })}
      />
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
      {select("rule", "Rule", [
        ...RULE_CATALOG.map((r): [string, string] => [r.key, r.label]),
        ["risk_score", "Risk score"],
      ])}
    </form>
  );
}

export function hasFilters(filters: Filters): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== "");
}
