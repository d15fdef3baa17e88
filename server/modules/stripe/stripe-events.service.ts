/**
 * Turns a verified Stripe event into stored state: the event once per account, the charge
 * merged (never moved backwards by a late event), the Standard rules evaluated on it, and
 * any refund or cancellation recorded before it is carried out. All in one transaction, so
 * the webhook answers 2xx only for an event whose effects are committed.
 */
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import type Stripe from "stripe";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import { type ChargeDecision, emailDomain, evaluateCharge } from "../../engine/charge-rules.ts";
import {
  type ChargeSnapshot,
  type ChargeStatus,
  mergeSnapshots,
  outcomeOf,
  snapshotOf,
} from "./charge-state.ts";
import type {
  StripeEventsRepository,
  TransactionRow,
  TransactionUpdate,
} from "./stripe-events.repository.ts";

// Built once: the package's own helper rebuilds this ~100k-entry set on every call.
const DISPOSABLE_DOMAINS = disposableEmailBlocklistSet();

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

export type IngestStatus = "applied" | "ignored" | "duplicate";

type Deps = {
  repo: StripeEventsRepository;
  policyFor(accountId: string): Promise<{ rules: Rules; blocklist: Blocklist }>;
  /** Fetches a charge from Stripe when an event names one we have not seen; null if it cannot. */
  fetchCharge(accountId: string, chargeId: string): Promise<Stripe.Charge | null>;
  /** Called after commit when an action was recorded, so it is carried out promptly. */
  onActionRecorded(): void;
  now: () => Date;
};

/** What an event tells about one charge. */
type Effect = {
  chargeId: string;
  snapshot?: ChargeSnapshot;
  warning?: { id: string; actionable: boolean; fraudType: string | null };
  disputed?: boolean;
};

function effectOf(event: Stripe.Event): Effect | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  if ((HANDLED_CHARGE_EVENTS as readonly string[]).includes(event.type)) {
    const charge = object as unknown as Stripe.Charge;
    return { chargeId: charge.id, snapshot: snapshotOf(charge) };
  }
  switch (event.type) {
    case "charge.dispute.created": {
      const dispute = object as unknown as Stripe.Dispute;
      return { chargeId: idOf(dispute.charge), disputed: true };
    }
    case "radar.early_fraud_warning.created":
    case "radar.early_fraud_warning.updated": {
      const warning = object as unknown as Stripe.Radar.EarlyFraudWarning;
      return {
        chargeId: idOf(warning.charge),
        warning: { id: warning.id, actionable: warning.actionable, fraudType: warning.fraud_type },
      };
    }
    case "payment_intent.amount_capturable_updated": {
      const intent = object as unknown as Stripe.PaymentIntent;
      return intent.latest_charge ? { chargeId: idOf(intent.latest_charge) } : null;
    }
    default:
      return null;
  }
}

function idOf(value: string | { id: string } | null): string {
  return typeof value === "string" ? value : (value?.id ?? "");
}

function snapshotOfRow(row: TransactionRow): ChargeSnapshot {
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
    livemode: row.livemode,
  };
}

type PlannedAction = { kind: "refund" | "cancel"; targetId: string; reason: string };

/** What to do about a charge the rules block: refund it, cancel its authorization, or nothing. */
function planAction(charge: ChargeSnapshot, decision: ChargeDecision): PlannedAction | null {
  if (decision.action !== "block" || charge.status !== "succeeded") return null;
  const reason = decision.reasons.map((r) => r.message).join("; ");
  if (!charge.captured) {
    return charge.paymentIntentId
      ? { kind: "cancel", targetId: charge.paymentIntentId, reason }
      : null;
  }
  if (charge.refunded) return null;
  return { kind: "refund", targetId: charge.chargeId, reason };
}

export function idempotencyKeyFor(action: PlannedAction, chargeId: string): string {
  return action.kind === "refund"
    ? `warden:${chargeId}:refund`
    : `warden:${action.targetId}:cancel`;
}

export function createStripeEventsService({
  repo,
  policyFor,
  fetchCharge,
  onActionRecorded,
  now,
}: Deps) {
  return {
    /**
     * Applies one event. With `act: false` (history import) the charge is recorded but the
     * rules do not refund or cancel anything.
     */
    async ingest(
      accountId: string,
      event: Stripe.Event,
      { act = true }: { act?: boolean } = {},
    ): Promise<{ status: IngestStatus }> {
      const effect = effectOf(event);
      const policy = effect ? await policyFor(accountId) : null;
      // A warning or authorization can arrive before its charge: ask Stripe for the charge.
      let fetched: ChargeSnapshot | undefined;
      if (effect && !effect.snapshot) {
        const known = await repo.findTransaction(accountId, effect.chargeId);
        if (!known?.hasCharge) {
          const charge = await fetchCharge(accountId, effect.chargeId);
          if (charge) fetched = snapshotOf(charge);
        }
      }

      let recordedAction = false;
      const status = await repo.transaction(async (tx) => {
        const fresh = await repo.recordEvent(tx, {
          accountId,
          eventId: event.id,
          type: event.type,
          created: event.created,
          status: effect ? "applied" : "ignored",
          chargeId: effect?.chargeId ?? null,
        });
        if (!fresh) return "duplicate" as const;
        if (!effect || !policy) return "ignored" as const;

        const row = await repo.lockTransaction(tx, accountId, effect.chargeId);
        const incoming = effect.snapshot ?? fetched;
        const isOlder = event.created < row.lastEventAt;
        let charge: ChargeSnapshot | null = row.hasCharge ? snapshotOfRow(row) : null;
        if (incoming) {
          charge = charge ? mergeSnapshots(charge, incoming, isOlder && !fetched) : incoming;
        }
        const warning =
          effect.warning ??
          (row.efwId
            ? { id: row.efwId, actionable: row.efwActionable ?? false, fraudType: row.efwFraudType }
            : null);
        const disputed = Boolean(effect.disputed || row.disputed || charge?.disputed);

        const update: TransactionUpdate = {
          lastEventAt: Math.max(row.lastEventAt, event.created),
          disputed,
          ...(warning
            ? {
                efwId: warning.id,
                efwActionable: warning.actionable,
                efwFraudType: warning.fraudType,
              }
            : {}),
        };
        let blockedByRule = row.blockedBy === "custom_rule";
        if (charge) {
          Object.assign(update, {
            hasCharge: true,
            paymentIntentId: charge.paymentIntentId,
            amount: charge.amount,
            amountRefunded: charge.amountRefunded,
            currency: charge.currency,
            email: charge.email,
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
            livemode: charge.livemode,
          } satisfies TransactionUpdate);
          const radarBlocked = charge.outcomeType === "blocked";
          if (radarBlocked) update.blockedBy = "stripe";
          // A decision is made once: a charge the rules acted on stays acted on.
          if (act && !radarBlocked && !blockedByRule) {
            const domain = emailDomain(charge.email);
            const decision = evaluateCharge(
              {
                email: charge.email,
                riskScore: charge.riskScore,
                cardCountry: charge.cardCountry,
                billingCountry: charge.billingCountry,
                earlyFraudWarning: warning,
              },
              policy,
              { disposableEmailDomain: domain ? DISPOSABLE_DOMAINS.has(domain) : false },
            );
            const planned = planAction(charge, decision);
            if (planned) {
              await repo.createAction(tx, {
                accountId,
                chargeId: charge.chargeId,
                ...planned,
                idempotencyKey: idempotencyKeyFor(planned, charge.chargeId),
                nextAttemptAt: now(),
              });
              recordedAction = true;
              blockedByRule = true;
              Object.assign(update, {
                blockedBy: "custom_rule",
                ruleReason: planned.reason,
                actionKind: planned.kind,
                actionStatus: "pending",
                actionError: null,
              } satisfies TransactionUpdate);
            }
          }
          update.outcome = outcomeOf({
            status: charge.status,
            captured: charge.captured,
            refunded: charge.refunded || row.refunded,
            disputed,
            outcomeType: charge.outcomeType,
            blockedByRule,
          });
        }
        await repo.saveTransaction(tx, accountId, effect.chargeId, update);
        return "applied" as const;
      });
      if (recordedAction) onActionRecorded();
      return { status };
    },
  };
}

export type StripeEventsService = ReturnType<typeof createStripeEventsService>;
