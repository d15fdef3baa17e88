/** How the dashboard shows a transaction's fields (spec §2 and §4); pure, so tested as a table. */
import type { TransactionAction } from "../../../../shared/schemas/transaction.ts";
import type { Tone } from "../../lib/tone.ts";

/** Amount in major units, always two decimals (spec §2), JPY included. */
export function formatAmount(amount: number): string {
  return amount.toFixed(2);
}

export function formatCurrency(currency: string): string {
  return currency.toUpperCase();
}

/** Created (Unix seconds) as a date-time in the viewer's own time zone and locale. */
export function formatCreated(created: number, locale?: string, timeZone?: string): string {
  return new Date(created * 1000).toLocaleString(locale, timeZone ? { timeZone } : undefined);
}

export const DASH = "-";

export function formatReason(reason: string | null | undefined): string {
  return reason?.trim() ? reason : DASH;
}

/**
 * Who blocked a charge: "Stripe", or the names of Warden's rules that blocked it (every rule
 * is one of Warden's own: "Custom Rule" stays only where no rule is known, as for charges
 * acted on before the rule was kept); a dash when nothing blocked it.
 */
export function formatBlockedBy(
  blockedBy: string | null | undefined,
  rules: readonly string[] = [],
): string {
  if (blockedBy === "Custom Rule" && rules.length > 0) return rules.join(", ");
  return blockedBy || DASH;
}

/** Failed and blocked red; succeeded and authorized green; anything else gray (spec §4). */
export function outcomeTone(outcome: string): Tone {
  if (outcome === "failed" || outcome === "blocked") return "red";
  if (outcome === "succeeded" || outcome === "authorized") return "green";
  return "gray";
}

/** Highest red; elevated yellow; anything else green (spec §4). */
export function riskTone(level: string | null | undefined): Tone {
  if (level === "highest") return "red";
  if (level === "elevated") return "yellow";
  return "green";
}

/** "elevated (65)"; the level alone when Stripe sent no score; a dash when neither. */
export function formatRisk(level: string | null, score: number | null): string {
  if (!level && score === null) return DASH;
  const name = level ?? DASH;
  return score === null ? name : `${name} (${score})`;
}

/** The Stripe dashboard page for a charge, in test or live mode as the charge was. */
export function stripeChargeUrl(chargeId: string, livemode: boolean): string {
  return `https://dashboard.stripe.com/${livemode ? "" : "test/"}payments/${encodeURIComponent(chargeId)}`;
}

const ACTION_NOUN = { refund: "refund", cancel: "cancel" } as const;
const ACTION_DONE = { refund: "refunded", cancel: "cancelled" } as const;

/** The state of Warden's Stripe call, e.g. "refund pending", "refunded", "refund failed: …". */
export function formatAction(action: TransactionAction): { text: string; tone: Tone } {
  if (action.status === "done") return { text: ACTION_DONE[action.kind], tone: "green" };
  if (action.status === "pending")
    return { text: `${ACTION_NOUN[action.kind]} pending`, tone: "yellow" };
  const why = action.error ? `: ${action.error}` : "";
  if (action.status === "needs_attention")
    return { text: `${ACTION_NOUN[action.kind]} needs attention${why}`, tone: "red" };
  return { text: `${ACTION_NOUN[action.kind]} failed${why}`, tone: "red" };
}

/** Amounts per currency for the totals card, e.g. "50.00 USD · 1500.00 JPY"; "0.00" when none. */
export function formatRefunded(refunded: { currency: string; amount: number }[]): string {
  if (refunded.length === 0) return formatAmount(0);
  return refunded.map((r) => `${formatAmount(r.amount)} ${formatCurrency(r.currency)}`).join(" · ");
}
