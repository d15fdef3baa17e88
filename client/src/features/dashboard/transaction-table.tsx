import type { DashboardRow } from "../../../../shared/schemas/transaction.ts";
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
    <div className="tx-scroll">
      <table className="tx-table">
        <caption className="visually-hidden">Transactions, newest first</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <TransactionRow key={row.id} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TransactionRow({ row }: { row: DashboardRow }) {
  const action = row.action && formatAction(row.action);
  return (
    <tr data-charge={row.id}>
      <td>
        <a
          href={stripeChargeUrl(row.id, row.livemode)}
          target="_blank"
          rel="noopener noreferrer"
          title="Open in the Stripe dashboard"
        >
          <code title={row.id}>{row.id}</code>
        </a>
      </td>
      <td className="num">{formatAmount(row.amount)}</td>
      <td>{formatCurrency(row.currency)}</td>
      <td>{row.email || "-"}</td>
      <td>
        <time dateTime={new Date(row.created * 1000).toISOString()}>
          {formatCreated(row.created)}
        </time>
      </td>
      <td>
        <span className={`tone tone-${outcomeTone(row.outcome)}`} data-cell="outcome">
          {row.outcome}
        </span>
      </td>
      <td>{formatReason(row.reason)}</td>
      <td>
        <span className={`tone tone-${riskTone(row.outcome_risk_level)}`} data-cell="risk">
          {formatRisk(row.outcome_risk_level, row.outcome_risk_score)}
        </span>
      </td>
      <td>
        {formatBlockedBy(row.blocked_by)}
        {action && (
          <span className={`action-badge tone-${action.tone}`} data-cell="action">
            {action.text}
          </span>
        )}
      </td>
    </tr>
  );
}
