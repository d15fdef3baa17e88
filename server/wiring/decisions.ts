/**
 * Wiring: what happens after a decision. Decision webhooks (a merchant's backend hears of
 * blocks, reviews, settlements and labels), labels, and the review queue.
 */

import type { Mailer } from "../lib/mailer.ts";
import type { SessionService } from "../modules/auth/session.service.ts";
import { createLabelsRepository } from "../modules/labels/labels.repository.ts";
import { createLabelsService } from "../modules/labels/labels.service.ts";
import { createFlagMarks } from "../modules/links/flag-marks.repository.ts";
import { createLinksRepository } from "../modules/links/links.repository.ts";
import { createLinksService } from "../modules/links/links.service.ts";
import { createLiveService } from "../modules/live/live.service.ts";
import { createChargeReviewRepository } from "../modules/review/charge-review.repository.ts";
import { createReviewRepository } from "../modules/review/review.repository.ts";
import { createReviewService } from "../modules/review/review.service.ts";
import { createDigestKeys } from "../modules/screening/screening.entry.ts";
import {
  labelCreatedEvent,
  reviewSettledEvent,
  ruleEvents,
  screeningEvents,
} from "../modules/webhooks/decision-events.ts";
import { createWebhookSender } from "../modules/webhooks/webhook-sender.ts";
import { createWebhooksRepository } from "../modules/webhooks/webhooks.repository.ts";
import { createWebhooksService } from "../modules/webhooks/webhooks.service.ts";
import type { ServiceDeps } from "./deps.ts";
import type { PolicyServices } from "./policy.ts";

export function wireDecisions(
  {
    prisma,
    changes,
    encryptor,
    publicUrl,
    webhooksAllowPrivate,
    webhookEndpointsPerAccount,
    log,
    now,
  }: ServiceDeps,
  {
    allowList,
    mail,
    sessions,
  }: Pick<PolicyServices, "allowList"> & {
    mail: Mailer;
    sessions: Pick<SessionService, "current">;
  },
) {
  const allowPrivate = webhooksAllowPrivate ?? false;
  // Each account's key for identity digests (decision 013): the review queue's shared
  // identities and screening's counting rows must hash alike, so both take this one.
  const digestKeyOf = createDigestKeys(encryptor.derive("identity-digests"));
  const webhooksRepo = createWebhooksRepository(prisma);
  const webhooks = createWebhooksService({
    repo: webhooksRepo,
    changes,
    encryptor,
    send: createWebhookSender({ allowPrivate }),
    // An endpoint disabled for failing is announced to the account's owner, like other
    // account emails, through the durable outbox.
    mail,
    publicUrl,
    allowPrivate,
    maxEndpoints: webhookEndpointsPerAccount ?? 20,
    now,
    log,
  });
  // Every decision event is stored in the transaction of the write it reports (the outbox).
  const { outbox } = webhooks;
  // Which event types an account's endpoints want, in memory: a screening's block or review,
  // or a rule's refund, costs no query for an account that wants none.
  const { wants } = webhooks;
  const events = {
    /** A judged screening's event, for the statement that stores its batch. */
    screening: screeningEvents(wants),
    /** The webhooks worker, woken once a batch's events are committed. */
    screeningStored: outbox.kick,
    /** A rule's action done: its events, for the action outbox's transaction. */
    ruleAction: { eventsOf: ruleEvents(wants), outbox },
  };
  // A deny or a label marks the screening's counting rows in its transaction (decision 023).
  const marks = createFlagMarks();
  // The console's live pages hear of stored screenings, charges and settles (modules/live);
  // a stream ends once its session no longer admits it.
  const live = createLiveService({ changes, sessions: (ids) => sessions.current(ids), log });
  const labels = createLabelsService({
    repo: createLabelsRepository(prisma, outbox, marks),
    now,
    eventOf: labelCreatedEvent,
    eventsStored: outbox.kick,
  });
  const review = createReviewService({
    repo: createReviewRepository(prisma, outbox, marks),
    charges: createChargeReviewRepository(prisma, outbox),
    labels,
    links: createLinksService({ repo: createLinksRepository(prisma) }),
    now,
    digestKeyOf,
    eventOf: reviewSettledEvent,
    eventsStored: outbox.kick,
    settledIn: (accountId) => live.changed(accountId, "review"),
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
  return { webhooks, events, labels, review, digestKeyOf, live };
}

export type DecisionServices = ReturnType<typeof wireDecisions>;
