/**
 * Where decision events come from: a screening answered block or review, a review settled, a
 * label added. A screening's event and a rule's refund are stored for the merchant's
 * endpoints after the decision itself, off the request's path: a failure to store the event
 * is logged and never fails the screening (fail-open, as the architecture states). A review
 * settled and a label added are stored in the same transaction as the write they report
 * (the review and labels repositories stage them in the outbox): what they say is built here.
 */
import type { LabelView } from "../../../shared/schemas/labels.ts";
import type { ScreenEvent, ScreenResult } from "../../../shared/schemas/screening.ts";
import type { WebhookEventType } from "../../../shared/schemas/webhooks.ts";
import type { Settled } from "../review/review.service.ts";
import type { WebhooksService } from "./webhooks.service.ts";
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

/** label.created: the label as the API shows it. */
export function labelCreatedEvent(label: LabelView): DecisionEvent {
  return { type: "label.created", data: { label } };
}

type Log = { warn(obj: object, msg: string): void };
type Screener = { screen(accountId: string, event: ScreenEvent): Promise<ScreenResult> };

export function withDecisionEvents(webhooks: Pick<WebhooksService, "emitMany">, log: Log) {
  const emitMany = (...args: Parameters<WebhooksService["emitMany"]>) => {
    webhooks
      .emitMany(...args)
      .catch((error) => log.warn({ err: error, type: args[1] }, "decision event not stored"));
  };
  const emit = (accountId: string, type: WebhookEventType, data: unknown) =>
    emitMany(accountId, type, [data]);
  return {
    /** The screening service, telling the endpoints of every block and review it answers. */
    screenings<S extends Screener>(service: S): S {
      return {
        ...service,
        async screen(accountId: string, event: ScreenEvent) {
          const result = await service.screen(accountId, event);
          if (result.decision !== "allow") {
            emit(
              accountId,
              result.decision === "block" ? "screening.blocked" : "screening.review",
              {
                screening: {
                  id: result.id,
                  type: event.type,
                  user_id: event.user_id ?? null,
                  decision: result.decision,
                  score: result.score,
                  reasons: result.reasons,
                },
              },
            );
          }
          return result;
        },
      };
    },

    /** A rule's refund (or cancelled authorization) went through at Stripe. */
    ruleActionDone(
      action: { accountId: string; chargeId: string; kind: string; reason: string },
      stripeObjectId: string | null,
    ) {
      emit(action.accountId, "charge.refunded_by_rule", {
        charge: {
          id: action.chargeId,
          action: action.kind,
          reason: action.reason,
          stripe_object_id: stripeObjectId,
        },
      });
    },
  };
}
