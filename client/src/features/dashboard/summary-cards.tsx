import type { DashboardSummary } from "../../../../shared/schemas/transaction.ts";
import { formatRefunded } from "./transaction-format.ts";

/** Totals over the same 30 days as the chart. */
export function SummaryCards({ summary }: { summary: DashboardSummary }) {
  const cards = [
    { label: "Charges", value: summary.charges.toLocaleString() },
    { label: "Blocked", value: summary.blocked.toLocaleString() },
    { label: "Amount refunded", value: formatRefunded(summary.refunded) },
  ];
  return (
    <section className="tx-cards" aria-label="Totals, last 30 days">
      {cards.map((card) => (
        <div key={card.label} className="tx-card">
          <span className="tx-card-label">{card.label}</span>
          <strong className="tx-card-value" data-total={card.label}>
            {card.value}
          </strong>
          <small>last 30 days</small>
        </div>
      ))}
    </section>
  );
}
