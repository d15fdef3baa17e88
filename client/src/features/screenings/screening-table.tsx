/**
 * The latest screenings; a row opens to show every reason with its observed value and limit,
 * what its risk score adds up from, and the accounts linked to it. On phones each row is a card (components/card-table.css),
 * decision first (screenings.css).
 */
import type { ScreeningRow } from "../../../../shared/schemas/screening.ts";
import { Breakable } from "../../components/breakable.tsx";
import { ExpandableTable } from "../../components/expandable-table.tsx";
import { ruleLabel } from "../../lib/rule-format.ts";
import { type RowSelection, SelectBox } from "../review/bulk-labels.tsx";
import { LabelButtons } from "../review/label-buttons.tsx";
import { LinkedAccounts } from "./linked-accounts.tsx";
import { ScoreBreakdown } from "./score-breakdown.tsx";
import {
  DECISION_NAMES,
  decisionTone,
  firedRules,
  formatType,
  formatWho,
} from "./screening-format.ts";
import { ScreeningReasons } from "./screening-reasons.tsx";

export const COLUMNS = [
  "Select",
  "Time",
  "Type",
  "User or email",
  "IP",
  "Decision",
  "Score",
  "Rules",
] as const;

export function ScreeningTable({
  rows,
  selection,
}: {
  rows: ScreeningRow[];
  /** The rows ticked for a bulk label (review/bulk-labels.tsx). */
  selection: RowSelection;
}) {
  return (
    <ExpandableTable
      rows={rows}
      columns={COLUMNS}
      prefix="sc"
      caption="Screenings, newest first"
      detailId={(id) => `screening-${id}`}
      row={(row, open, onFlip) => (
        <Row row={row} open={open} onFlip={onFlip} selection={selection} />
      )}
      detail={(row) => (
        <>
          {row.collect_ip && (
            <p className="sc-collect">
              IP seen by warden.js: <b data-collect-ip>{row.collect_ip}</b>
              {row.ip && row.ip !== row.collect_ip ? ` (your backend sent ${row.ip})` : ""}
            </p>
          )}
          <ScreeningReasons row={row} />
          <ScoreBreakdown score={row.score} contributions={row.contributions} />
          <LinkedAccounts id={row.id} createdAt={row.created_at} load />
          <LabelButtons kind="screening" id={row.id} />
        </>
      )}
    />
  );
}

function Row({
  row,
  open,
  onFlip,
  selection,
}: {
  row: ScreeningRow;
  open: boolean;
  onFlip: () => void;
  selection: RowSelection;
}) {
  const rules = firedRules(row.reasons, row.monitored, row.allowed?.rules);
  return (
    <tr data-screening={row.id} className={open ? "card-row open" : "card-row"}>
      <td className="sc-select">
        <SelectBox
          selection={selection}
          subject={{ kind: "screening", id: row.id }}
          name={`${formatType(row.type)} ${formatWho(row.user_id, row.email)}`}
        />
      </td>
      <td className="sc-time">
        <button
          type="button"
          className="sc-open"
          aria-expanded={open}
          aria-controls={`screening-${row.id}`}
          title={open ? "Hide the reasons" : "Show the reasons"}
          onClick={onFlip}
        >
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
          <time dateTime={row.created_at}>{new Date(row.created_at).toLocaleString()}</time>
        </button>
      </td>
      <td className="sc-type">{formatType(row.type)}</td>
      <td className="sc-who">
        <Breakable value={formatWho(row.user_id, row.email)} />
      </td>
      <td className="sc-ip" data-label="IP">
        {row.ip ? <Breakable value={row.ip} /> : "-"}
      </td>
      <td className="sc-verdict">
        <span className={`sc-decision tone-${decisionTone(row.decision)}`} data-cell="decision">
          {DECISION_NAMES[row.decision]}
        </span>
      </td>
      <td className="num sc-score" data-label="Score">
        {row.score}
      </td>
      <td className="sc-rules">
        {rules.length === 0
          ? "-"
          : rules.map(({ rule, monitored, allowed }) => (
              <span key={rule} className={monitored || allowed ? "sc-rule monitored" : "sc-rule"}>
                {ruleLabel(rule)}
                {monitored ? " (monitor)" : allowed ? " (allow list)" : ""}
              </span>
            ))}
      </td>
    </tr>
  );
}
