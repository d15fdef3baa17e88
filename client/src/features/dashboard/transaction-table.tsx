/** The dashboard's transactions: the spec's table, and on phones a card per row (components/card-table.css), outcome first (dashboard.css). */
import type { DashboardRow } from "../../../../shared/schemas/transaction.ts";
import { Breakable } from "../../components/breakable.tsx";
import { ExpandableTable } from "../../components/expandable-table.tsx";
import { LabelButtons } from "../review/label-buttons.tsx";
import {
  formatAction,
  formatAmount,
  formatBlockedBy,
  formatCreated,
  formatCurrency,
  formatReason,
  formatRisk,
  outcomeTone,
  riskTone,
  stripeChargeUrl,
} from "./transaction-format.ts";

/** The spec's nine columns, in its order. */
export const COLUMNS = [
  "Charge ID",
  "Amount",
  "Currency",
  "Email",
  "Created",
  "Outcome",
  "Reason",
  "Risk Level & Score",
  "Blocked By",
] as const;

export function TransactionTable({ rows }: { rows: DashboardRow[] }) {
  return (
    <ExpandableTable
      rows={rows}
      columns={COLUMNS}
      prefix="tx"
      caption="Transactions, newest first"
      detailId={(id) => `charge-${id}`}
      row={(row, open, onFlip) => <TransactionRow row={row} open={open} onFlip={onFlip} />}
      detail={(row) => <LabelButtons kind="charge" id={row.id} />}
    />
  );
}

function TransactionRow({
  row,
  open,
  onFlip,
}: {
  row: DashboardRow;
  open: boolean;
  onFlip(): void;
}) {
  const action = row.action && formatAction(row.action);
  return (
    <tr data-charge={row.id} className={open ? "card-row open" : "card-row"}>
      <td className="tx-id">
        {/* Its arrow is drawn by CSS, so the cell's text stays the charge id (spec §2). */}
        <button
          type="button"
          className="tx-open"
          aria-expanded={open}
          aria-controls={`charge-${row.id}`}
          aria-label={`Label ${row.id}`}
          title={open ? "Hide the label" : "Label fraud or legitimate"}
          onClick={onFlip}
        />
        <a
          href={stripeChargeUrl(row.id, row.livemode)}
          target="_blank"
          rel="noopener noreferrer"
          title="Open in the Stripe dashboard"
        >
          <code title={row.id}>{row.id}</code>
        </a>
      </td>
      <td className="num tx-amount">{formatAmount(row.amount)}</td>
      <td className="tx-currency">{formatCurrency(row.currency)}</td>
      <td className="tx-email">{row.email ? <Breakable value={row.email} /> : "-"}</td>
      <td className="tx-created">
        <time dateTime={new Date(row.created * 1000).toISOString()}>
          {formatCreated(row.created)}
        </time>
      </td>
      <td className="tx-outcome">
        <span className={`tone tone-${outcomeTone(row.outcome)}`} data-cell="outcome">
          {row.outcome}
        </span>
      </td>
      <td className="tx-reason" data-label="Reason">
        {formatReason(row.reason)}
      </td>
      <td className="tx-risk" data-label="Risk">
        <span className={`tone tone-${riskTone(row.outcome_risk_level)}`} data-cell="risk">
          {formatRisk(row.outcome_risk_level, row.outcome_risk_score)}
        </span>
      </td>
      <td className="tx-blocked-by" data-label="Blocked by">
        {formatBlockedBy(row.blocked_by, row.blocked_by_rules)}
        {action && (
          <span className={`action-badge tone-${action.tone}`} data-cell="action">
            {action.text}
          </span>
        )}
      </td>
    </tr>
  );
}
