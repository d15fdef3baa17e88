/**
 * Wiring: what happens after a decision. Decision webhooks (a merchant's backend hears of
 * blocks, reviews, settlements and labels), labels, and the review queue.
 */
import { createLabelsRepository } from "../modules/labels/labels.repository.ts";
import { createLabelsService } from "../modules/labels/labels.service.ts";
import { createChargeReviewRepository } from "../modules/review/charge-review.repository.ts";
import { createReviewRepository } from "../modules/review/review.repository.ts";
import { createReviewService } from "../modules/review/review.service.ts";
import { createDigestKeys } from "../modules/screening/identities.ts";
import {
  labelCreatedEvent,
  reviewSettledEvent,
  withDecisionEvents,
} from "../modules/webhooks/decision-events.ts";
import { createWebhookSender } from "../modules/webhooks/webhook-sender.ts";
import { createWebhooksRepository } from "../modules/webhooks/webhooks.repository.ts";
import { createWebhooksService } from "../modules/webhooks/webhooks.service.ts";
import type { ServiceDeps } from "./deps.ts";
import type { PolicyServices } from "./policy.ts";

export function wireDecisions(
  { prisma, changes, encryptor, webhooksAllowPrivate, log, now }: ServiceDeps,
  { allowList }: Pick<PolicyServices, "allowList">,
) {
  const allowPrivate = webhooksAllowPrivate ?? false;
  // Each account's key for identity digests (decision 013): the review queue's shared
  // identities and screening's counting rows must hash alike, so both take this one.
  const digestKeyOf = createDigestKeys(encryptor.derive("identity-digests"));
  const webhooks = createWebhooksService({
    repo: createWebhooksRepository(prisma),
    changes,
    encryptor,
    send: createWebhookSender({ allowPrivate }),
    allowPrivate,
    now,
    log,
  });
  const events = withDecisionEvents(webhooks, log);
  // Labels and settlements store their decision events in their own transaction (the outbox).
  const { outbox } = webhooks;
  const labels = createLabelsService({
    repo: createLabelsRepository(prisma, outbox),
    now,
    eventOf: labelCreatedEvent,
    eventsStored: outbox.kick,
  });
  const review = createReviewService({
    repo: createReviewRepository(prisma, outbox),
    charges: createChargeReviewRepository(prisma, outbox),
    labels,
    now,
    digestKeyOf,
    eventOf: reviewSettledEvent,
    eventsStored: outbox.kick,
    // "Always allow this user": the user id, else the email, goes on the allow list.
    // (A rule of the review queue's: it belongs in review.service.ts, which was being
    // changed elsewhere when the wiring was split.)
    onSettled: async (accountId, settled, { alwaysAllow, by }) => {
      const value = settled.userId ?? settled.email;
      if (!alwaysAllow || !value) return;
      const kind = settled.userId ? "user_id" : "email";
      await allowList.add(accountId, { kind, value, note: "approved in review" }, by);
    },
  });
  return { webhooks, events, labels, review, digestKeyOf };
}

export type DecisionServices = ReturnType<typeof wireDecisions>;
