/**
 * Where decision events come from: a screening answered block or review, a review settled, a
 * label added, a rule's refund done. Each is stored in the same transaction as the write it
 * reports, so neither can be committed without the other (a transactional outbox): a review
 * settled, a label added and a rule's refund through the outbox (`EventOutbox.stage` on the
 * transaction's client), a screening by the very statement that stores its batch
 * (screening.sql.ts). What each event says is built here.
 */
import { randomUUID } from "node:crypto";
import type { LabelView } from "../../../shared/schemas/labels.ts";
import type { WebhookEventType } from "../../../shared/schemas/webhooks.ts";
import type { Settled } from "../review/review.service.ts";
import type { ScreeningEventRow, StoredScreening } from "../screening/screening.repository.ts";
import type { DecisionEvent } from "./webhooks.types.ts";

/** review.approved / review.denied: the item settled, who settled it, and how. */
export function reviewSettledEvent(settled: Settled, by: string): DecisionEvent {
  return {
    type: settled.status === "approved" ? "review.approved" : "review.denied",
    data: {
      review:
        settled.kind === "charge"
          ? {
              kind: "charge",
              charge_id: settled.id,
              status: settled.status,
              by,
              email: settled.email,
            }
          : {
              kind: "screening",
              screening_id: settled.id,
              status: settled.status,
              by,
              user_id: settled.userId,
            },
    },
  };
}

/**
 * end_user.erased: an end user's data was erased (decision 029). Its id, when, which kinds of
 * selector named the person, and how many rows of each kind: never the erased values.
 */
export function endUserErasedEvent(erasure: {
  erasure_id: string;
  erased_at: string;
  selectors: readonly string[];
  counts: Record<string, number>;
}): DecisionEvent {
  return {
    type: "end_user.erased",
    data: {
      erasure_id: erasure.erasure_id,
      erased_at: erasure.erased_at,
      selectors: [...erasure.selectors],
      counts: { ...erasure.counts },
    },
  };
}

/** label.created: the label as the API shows it. */
export function labelCreatedEvent(label: LabelView): DecisionEvent {
  return { type: "label.created", data: { label } };
}

/** screening.blocked / screening.review for a screening stored under `id`; null for an allow. */
export function screeningEvent(id: string, row: StoredScreening): DecisionEvent | null {
  if (row.decision !== "block" && row.decision !== "review") return null;
  return {
    type: row.decision === "block" ? "screening.blocked" : "screening.review",
    data: {
      screening: {
        id,
        type: row.type,
        user_id: row.userId,
        decision: row.decision,
        score: row.score,
        reasons: row.reasons,
      },
    },
  };
}

/** A rule's refund or cancelled authorization, as the action outbox records it. */
type RuleAction = { chargeId: string; kind: string; reason: string };

/** How a rule's action ended: Stripe's object, and the charge's review if the action closed it. */
export type RuleActionDone = {
  stripeObjectId: string | null;
  /** The charge's review it closed (denied by `by`, "rule"), if it was open. */
  closedReview: { email: string | null; by: string } | null;
};

/**
 * charge.refunded_by_rule for a rule's refund (or cancelled authorization) that went through
 * at Stripe; and review.denied by "rule" when it closed the charge's open review.
 */
export function ruleActionEvents(action: RuleAction, done: RuleActionDone): DecisionEvent[] {
  const refunded: DecisionEvent = {
    type: "charge.refunded_by_rule",
    data: {
      charge: {
        id: action.chargeId,
        action: action.kind,
        reason: action.reason,
        stripe_object_id: done.stripeObjectId,
      },
    },
  };
  if (!done.closedReview) return [refunded];
  const { email, by } = done.closedReview;
  const denied = reviewSettledEvent(
    { kind: "charge", id: action.chargeId, status: "denied", userId: null, email },
    by,
  );
  return [refunded, denied];
}

/**
 * An event as a delivery carries it: its id (the same for every endpoint and every retry) and
 * its body, `{ id, type, created, data }`, as the receiver gets it.
 */
export function encodedEvent(
  event: DecisionEvent,
  at: Date,
  eventId = `evt_${randomUUID().replaceAll("-", "")}`,
) {
  const created = Math.floor(at.getTime() / 1000);
  return {
    eventId,
    body: JSON.stringify({ id: eventId, type: event.type, created, data: event.data }),
  };
}

/** Whether any endpoint of the account wants events of a type (webhooks/subscriptions.ts). */
type Wants = (accountId: string, type: WebhookEventType) => Promise<boolean>;

/**
 * The event a judged screening reports, ready for the statement that stores the screening;
 * null (no promise, no lookup) for an allow, the common case. A block or review asks the
 * in-memory subscriptions, so an account whose endpoints want neither costs no query. When
 * they cannot be read, the event goes to the statement anyway: it stores a delivery only for
 * the endpoints that want it, and a screening never fails for its event.
 */
export function screeningEvents(wants: Wants) {
  return (id: string, row: StoredScreening): Promise<ScreeningEventRow | null> | null => {
    const event = screeningEvent(id, row);
    if (!event) return null;
    return wants(row.accountId, event.type)
      .catch(() => true)
      .then((wanted) =>
        wanted
          ? {
              accountId: row.accountId,
              type: event.type,
              at: row.createdAt,
              ...encodedEvent(event, row.createdAt),
            }
          : null,
      );
  };
}

/**
 * The events of a rule's action done, for the action outbox (stripe-actions.service.ts): null
 * (the action is finished by one statement, no transaction) when the account's endpoints want
 * neither charge.refunded_by_rule nor review.denied. The outbox stores each event only for the
 * endpoints that want its type.
 */
export function ruleEvents(wants: Wants) {
  return async (action: RuleAction & { accountId: string }) => {
    // Subscriptions that cannot be read count as wanted: the outbox stores each event only
    // for the endpoints that want its type, and an action done never fails for its event.
    const wanted = (type: WebhookEventType) => wants(action.accountId, type).catch(() => true);
    const [refunded, denied] = await Promise.all([
      wanted("charge.refunded_by_rule"),
      wanted("review.denied"),
    ]);
    if (!refunded && !denied) return null;
    return (done: RuleActionDone) => ruleActionEvents(action, done);
  };
}
