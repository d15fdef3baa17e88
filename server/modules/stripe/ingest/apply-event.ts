/**
 * What one Stripe event does to the stored charge, as pure functions: which charge it is
 * about (effectOf), and given the row as stored, the merchant's policy and the features,
 * the row's new state and the refund or cancellation to record (applyEvent). The ingest
 * service does the I/O around them, in one transaction.
 */
import type Stripe from "stripe";
import type { ReasonKey } from "../../../../shared/schemas/rules.ts";
import type { TransactionRow } from "../../../db/rows.ts";
import { type Evaluation, evaluate, type Features, type Policy } from "../../../engine/index.ts";
import {
  type ChargeSnapshot,
  type ChargeStatus,
  mergeSnapshots,
  outcomeOf,
  snapshotOf,
} from "./charge-state.ts";
import type { TransactionUpdate } from "./stripe-events.repository.ts";

export const HANDLED_CHARGE_EVENTS = [
  "charge.succeeded",
  "charge.failed",
  "charge.pending",
  "charge.captured",
  "charge.updated",
  "charge.refunded",
  "charge.expired",
] as const;

export const HANDLED_EVENTS = [
  ...HANDLED_CHARGE_EVENTS,
  "charge.dispute.created",
  "radar.early_fraud_warning.created",
  "radar.early_fraud_warning.updated",
  "payment_intent.amount_capturable_updated",
] as const;

type Warning = { id: string; actionable: boolean; fraudType: string | null };

/** What an event tells about one charge. */
export type Effect = {
  chargeId: string;
  /** event.created: an event older than the row's newest never moves its state back. */
  created: number;
  snapshot?: ChargeSnapshot;
  /** The charge as Stripe has it now, fetched because the event did not carry it. */
  fetched?: ChargeSnapshot;
  warning?: Warning;
  disputed?: boolean;
  /** Stripe says the charge was fraud (a fraud dispute, a new early fraud warning): why. */
  fraud?: string;
};

export type PlannedAction = {
  kind: "refund" | "cancel";
  targetId: string;
  reason: string;
  /** The rules whose block it carries out, in the evaluation's order (the dashboard names them). */
  rules: ReasonKey[];
  idempotencyKey: string;
  /** Demo charges: carried out by updating the charge, never by calling Stripe. */
  simulated: boolean;
};

export function effectOf(event: Stripe.Event): Effect | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  const created = event.created;
  if ((HANDLED_CHARGE_EVENTS as readonly string[]).includes(event.type)) {
    const charge = object as unknown as Stripe.Charge;
    return { chargeId: charge.id, created, snapshot: snapshotOf(charge) };
  }
  switch (event.type) {
    case "charge.dispute.created": {
      const dispute = object as unknown as Stripe.Dispute;
      const fraud = dispute.reason === "fraudulent" ? "fraudulent dispute" : undefined;
      return { chargeId: idOf(dispute.charge), created, disputed: true, fraud };
    }
    case "radar.early_fraud_warning.created":
    case "radar.early_fraud_warning.updated": {
      const warning = object as unknown as Stripe.Radar.EarlyFraudWarning;
      return {
        chargeId: idOf(warning.charge),
        created,
        warning: { id: warning.id, actionable: warning.actionable, fraudType: warning.fraud_type },
        ...(event.type === "radar.early_fraud_warning.created"
          ? { fraud: `early fraud warning (${warning.fraud_type})` }
          : {}),
      };
    }
    case "payment_intent.amount_capturable_updated": {
      const intent = object as unknown as Stripe.PaymentIntent;
      return intent.latest_charge ? { chargeId: idOf(intent.latest_charge), created } : null;
    }
    default:
      return null;
  }
}

function idOf(value: string | { id: string } | null): string {
  return typeof value === "string" ? value : (value?.id ?? "");
}

export function snapshotOfRow(row: TransactionRow): ChargeSnapshot | null {
  if (!row.hasCharge) return null;
  return {
    chargeId: row.chargeId,
    paymentIntentId: row.paymentIntentId,
    amount: row.amount,
    amountRefunded: row.amountRefunded,
    currency: row.currency,
    email: row.email,
    created: row.created,
    status: row.status as ChargeStatus,
    captured: row.captured,
    refunded: row.refunded,
    disputed: row.disputed,
    outcomeType: row.outcomeType,
    outcomeReason: row.outcomeReason,
    riskLevel: row.riskLevel,
    riskScore: row.riskScore,
    cardCountry: row.cardCountry,
    billingCountry: row.billingCountry,
    cardFingerprint: row.cardFingerprint,
    livemode: row.livemode,
    demo: row.demo,
  };
}

/** The charge as it stands after this event: stored state merged with what the event brings. */
function mergedCharge(row: TransactionRow, effect: Effect): ChargeSnapshot | null {
  const stored = snapshotOfRow(row);
  const incoming = effect.snapshot ?? effect.fetched;
  if (!incoming) return stored;
  if (!stored) return incoming;
  const isOlder = effect.created < row.lastEventAt && !effect.fetched;
  return mergeSnapshots(stored, incoming, isOlder);
}

function storedWarning(row: TransactionRow): Warning | null {
  if (!row.efwId) return null;
  return { id: row.efwId, actionable: row.efwActionable ?? false, fraudType: row.efwFraudType };
}

/**
 * The row's columns for a charge snapshot. Once its personal fields were cleared (an end
 * user's erasure or retention: personalClearedAt), a later event does not write them back.
 */
function chargeColumns(charge: ChargeSnapshot, row: TransactionRow) {
  const cleared = Boolean(row.personalClearedAt);
  return {
    hasCharge: true,
    paymentIntentId: charge.paymentIntentId,
    amount: charge.amount,
    amountRefunded: charge.amountRefunded,
    currency: charge.currency,
    email: cleared ? null : charge.email,
    created: charge.created,
    status: charge.status,
    captured: charge.captured,
    refunded: charge.refunded || row.refunded,
    outcomeType: charge.outcomeType,
    outcomeReason: charge.outcomeReason,
    riskLevel: charge.riskLevel,
    riskScore: charge.riskScore,
    cardCountry: charge.cardCountry,
    billingCountry: charge.billingCountry,
    cardFingerprint: cleared ? null : charge.cardFingerprint,
    livemode: charge.livemode,
    demo: charge.demo,
  } satisfies TransactionUpdate;
}

/**
 * The new state of a charge's row after one event, and the action to record if the
 * merchant's rules block it. With `act: false` (history import) the rules are not run.
 * A decision is made once: a charge the rules acted on stays acted on.
 */
export function applyEvent(
  row: TransactionRow,
  effect: Effect,
  policy: Policy,
  features: Features,
  { act = true }: { act?: boolean } = {},
): { update: TransactionUpdate; action: PlannedAction | null } {
  const charge = mergedCharge(row, effect);
  const warning = effect.warning ?? storedWarning(row);
  const disputed = Boolean(effect.disputed || row.disputed || charge?.disputed);
  const common = {
    lastEventAt: Math.max(row.lastEventAt, effect.created),
    disputed,
    ...(warning
      ? { efwId: warning.id, efwActionable: warning.actionable, efwFraudType: warning.fraudType }
      : {}),
  } satisfies TransactionUpdate;
  if (!charge) return { update: common, action: null };

  const radarBlocked = charge.outcomeType === "blocked";
  const alreadyActed = row.blockedBy === "custom_rule";
  const evaluation =
    act && !radarBlocked && !alreadyActed
      ? evaluate(chargeSubject(charge, warning), policy, features)
      : null;
  const action = evaluation ? planAction(charge, evaluation) : null;
  const review = evaluation && !action && !row.reviewStatus ? reviewOf(charge, evaluation) : null;
  const blockedByRule = alreadyActed || action !== null;
  const refunded = charge.refunded || row.refunded;
  // Object.assign onto the fresh columns, not spreads: in Node 20's V8 each key a spread adds
  // to another spread's copy is a map transition it does not cache (~25 µs for this row).
  // The parts share no key but blockedBy, which radar and an action never both set.
  // A review opens once: a later event neither reopens a settled one nor moves its reasons.
  return {
    update: Object.assign(
      chargeColumns(charge, row),
      common,
      radarBlocked ? { blockedBy: "stripe" as const } : null,
      action
        ? {
            blockedBy: "custom_rule" as const,
            ruleReason: action.reason,
            ruleKeys: action.rules,
            actionKind: action.kind,
            actionStatus: "pending",
            actionError: null,
          }
        : null,
      review,
      {
        outcome: outcomeOf({
          status: charge.status,
          captured: charge.captured,
          refunded,
          disputed,
          outcomeType: charge.outcomeType,
          blockedByRule,
        }),
      },
    ) satisfies TransactionUpdate,
    action,
  };
}

function chargeSubject(charge: ChargeSnapshot, warning: Warning | null) {
  return {
    kind: "charge" as const,
    email: charge.email,
    riskScore: charge.riskScore,
    cardCountry: charge.cardCountry,
    billingCountry: charge.billingCountry,
    cardFingerprint: charge.cardFingerprint,
    earlyFraudWarning: warning,
  };
}

/**
 * The review a charge the rules answer `review` opens (a succeeded charge, as for a block:
 * there is money to keep or refund), with the reasons the queue shows.
 */
export function reviewOf(
  charge: ChargeSnapshot,
  evaluation: Evaluation,
): { reviewStatus: "open"; reviewReasons: Evaluation["reasons"] } | null {
  if (evaluation.decision !== "review" || charge.status !== "succeeded") return null;
  return { reviewStatus: "open", reviewReasons: evaluation.reasons };
}

/** What to do about a charge the rules block: refund it, cancel its authorization, or nothing. */
export function planAction(charge: ChargeSnapshot, evaluation: Evaluation): PlannedAction | null {
  if (evaluation.decision !== "block" || charge.status !== "succeeded") return null;
  const blocking = evaluation.reasons.filter((r) => r.action === "block");
  const reason = blocking.map((r) => r.message).join("; ");
  const rules = [...new Set(blocking.map((r) => r.rule))];
  const simulated = charge.demo;
  if (!charge.captured) {
    if (!charge.paymentIntentId) return null;
    const targetId = charge.paymentIntentId;
    return {
      kind: "cancel",
      targetId,
      reason,
      rules,
      simulated,
      idempotencyKey: `warden:${targetId}:cancel`,
    };
  }
  if (charge.refunded) return null;
  const targetId = charge.chargeId;
  return {
    kind: "refund",
    targetId,
    reason,
    rules,
    simulated,
    idempotencyKey: `warden:${targetId}:refund`,
  };
}
