/**
 * What Warden keeps of a Stripe charge, and how a newer event is merged into it. Stripe
 * delivers events at least once and in any order; a charge's state only moves forward
 * (pending → succeeded/failed, uncaptured → captured, refunds and disputes only grow), so
 * merging takes the furthest state of each fact and never goes back.
 */
import type Stripe from "stripe";
import type { Outcome } from "../../../../shared/schemas/transaction.ts";

export type ChargeStatus = "pending" | "succeeded" | "failed";

export type ChargeSnapshot = {
  chargeId: string;
  paymentIntentId: string | null;
  amount: number;
  amountRefunded: number;
  currency: string;
  email: string | null;
  created: number;
  status: ChargeStatus;
  captured: boolean;
  refunded: boolean;
  disputed: boolean;
  outcomeType: string | null;
  outcomeReason: string | null;
  riskLevel: string | null;
  riskScore: number | null;
  cardCountry: string | null;
  billingCountry: string | null;
  cardFingerprint: string | null;
  livemode: boolean;
  /** A demo-bundle charge in test mode: what the rules decide about it is simulated. */
  demo: boolean;
};

/** The charge's email: billing details, else the receipt email, else the customer's. */
export function chargeEmail(charge: Stripe.Charge): string | null {
  const customer = typeof charge.customer === "object" ? charge.customer : null;
  const customerEmail =
    customer && !("deleted" in customer && customer.deleted) ? customer.email : null;
  const email = charge.billing_details?.email || charge.receipt_email || customerEmail || null;
  // Stored lowercased: the email rule and the dashboard's prefix search compare it that way.
  return email ? email.trim().toLowerCase() : null;
}

export function snapshotOf(charge: Stripe.Charge): ChargeSnapshot {
  const card = charge.payment_method_details?.card;
  const paymentIntent = charge.payment_intent;
  return {
    chargeId: charge.id,
    paymentIntentId:
      typeof paymentIntent === "string" ? paymentIntent : (paymentIntent?.id ?? null),
    amount: charge.amount,
    amountRefunded: charge.amount_refunded ?? 0,
    currency: charge.currency.toLowerCase(),
    email: chargeEmail(charge),
    created: charge.created,
    status: charge.status as ChargeStatus,
    captured: charge.captured,
    refunded: charge.refunded,
    disputed: charge.disputed,
    outcomeType: charge.outcome?.type ?? null,
    outcomeReason: charge.outcome?.reason ?? null,
    riskLevel: charge.outcome?.risk_level ?? null,
    riskScore: charge.outcome?.risk_score ?? null,
    cardCountry: card?.country ?? null,
    billingCountry: charge.billing_details?.address?.country ?? null,
    cardFingerprint: card?.fingerprint ?? null,
    livemode: charge.livemode,
    demo: !charge.livemode && charge.metadata?.warden_demo === "true",
  };
}

const STATUS_RANK: Record<ChargeStatus, number> = { pending: 0, succeeded: 1, failed: 1 };

/**
 * Merges `incoming` into `stored`, keeping the furthest state of every fact. An incoming copy
 * from an older event (`incomingIsOlder`) never replaces the stored fields; it can only add
 * facts that move forward (captured, refunded, disputed).
 */
export function mergeSnapshots(
  stored: ChargeSnapshot,
  incoming: ChargeSnapshot,
  incomingIsOlder = false,
): ChargeSnapshot {
  const newer =
    !incomingIsOlder && STATUS_RANK[incoming.status] >= STATUS_RANK[stored.status]
      ? incoming
      : stored;
  return {
    ...newer,
    captured: stored.captured || incoming.captured,
    amountRefunded: Math.max(stored.amountRefunded, incoming.amountRefunded),
    refunded: stored.refunded || incoming.refunded,
    disputed: stored.disputed || incoming.disputed,
    // Radar's verdict is set once, when the charge is created; keep whichever copy has it.
    outcomeType: newer.outcomeType ?? stored.outcomeType ?? incoming.outcomeType,
    outcomeReason: newer.outcomeReason ?? stored.outcomeReason ?? incoming.outcomeReason,
    riskLevel: newer.riskLevel ?? stored.riskLevel ?? incoming.riskLevel,
    riskScore: newer.riskScore ?? stored.riskScore ?? incoming.riskScore,
    email: newer.email ?? stored.email ?? incoming.email,
    cardFingerprint: newer.cardFingerprint ?? stored.cardFingerprint ?? incoming.cardFingerprint,
  };
}

/**
 * The one outcome a merchant sees, first match wins: disputed; blocked (Radar blocked it,
 * or one of the merchant's rules acted on it); refunded (in full); failed; pending;
 * authorized (succeeded, not captured); succeeded.
 */
export function outcomeOf(state: {
  status: ChargeStatus;
  captured: boolean;
  refunded: boolean;
  disputed: boolean;
  outcomeType: string | null;
  blockedByRule: boolean;
}): Outcome {
  if (state.disputed) return "disputed";
  if (state.outcomeType === "blocked" || state.blockedByRule) return "blocked";
  if (state.refunded) return "refunded";
  if (state.status === "failed") return "failed";
  if (state.status === "pending") return "pending";
  if (!state.captured) return "authorized";
  return "succeeded";
}
