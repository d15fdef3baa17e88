/**
 * Decision webhooks: a merchant's endpoints, the events Warden sends them, and the worker
 * that delivers them. emit() only stores one delivery per subscribed endpoint (the outbox
 * pattern the account emails use), so no request waits for a merchant's server; the worker
 * signs and posts each one, retrying with the outbox's backoff across restarts, and keeps
 * every attempt for the console. At-least-once: receivers de-duplicate by the event id.
 */
import { randomBytes } from "node:crypto";
import {
  type WebhookDeliveryView,
  type WebhookEndpointInput,
  type WebhookEndpointView,
  type WebhookEventType,
  ZWebhookEndpointInput,
} from "../../../shared/schemas/webhooks.ts";
import { signatureHeader } from "../../../shared/webhook-signature.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { AppError } from "../../lib/app-error.ts";
import { createBackgroundWorker } from "../../lib/background-worker.ts";
import type { Encryptor } from "../../lib/encryption.ts";
import { retryDelayMs } from "../outbox/outbox.service.ts";
import { endpointProblem } from "./ssrf.ts";
import { createSubscriptions } from "./subscriptions.ts";
import type { WebhookSender } from "./webhook-sender.ts";
import type { Attempt, WebhooksRepository } from "./webhooks.repository.ts";
import type { EventOutbox } from "./webhooks.types.ts";

const BATCH = 20;
const LEASE_MS = 60_000;
const POLL_MS = 5_000;
const MAX_ATTEMPTS = 8;

type Deps = {
  repo: WebhooksRepository;
  /** Announces endpoint changes to every instance (cached subscriptions). */
  changes: ChangeFeed;
  encryptor: Encryptor;
  send: WebhookSender;
  allowPrivate: boolean;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  pollMs?: number;
};

const sealFor = (accountId: string) => `webhook-secret:${accountId}`;

export function createWebhooksService({
  repo,
  changes,
  encryptor,
  send,
  allowPrivate,
  now,
  log,
  pollMs = POLL_MS,
}: Deps) {
  const subscriptions = createSubscriptions(repo.subscribedTypes, changes, now);
  async function deliverOne(delivery: Awaited<ReturnType<WebhooksRepository["claimDue"]>>[number]) {
    const endpoint = await repo.endpointSecret(delivery.endpointId);
    if (!endpoint) return;
    const secret = encryptor.open(endpoint.secretCipher, sealFor(delivery.accountId));
    const started = performance.now();
    const at = now();
    const result = await send(endpoint.url, delivery.body, {
      "warden-signature": await signatureHeader(
        secret,
        Math.floor(at.getTime() / 1000),
        delivery.body,
      ),
      "warden-event-id": delivery.eventId,
      "warden-event-type": delivery.eventType,
    });
    const attempts = delivery.attempts + 1;
    const entry: Attempt = {
      at: at.toISOString(),
      ...result,
      ms: Math.round(performance.now() - started),
    };
    const log = [...(delivery.attemptLog ?? []), entry].slice(-20);
    const delivered = result.error === null;
    const gaveUp = !delivered && attempts >= MAX_ATTEMPTS;
    await repo.record(delivery.id, {
      status: delivered ? "delivered" : gaveUp ? "failed" : "pending",
      attempts,
      log,
      nextAttemptAt: new Date(now().getTime() + retryDelayMs(attempts)),
      deliveredAt: delivered ? now() : null,
    });
  }

  async function deliver(): Promise<void> {
    for (;;) {
      const at = now();
      const due = await repo.claimDue(at, new Date(at.getTime() + LEASE_MS), BATCH);
      if (due.length === 0) return;
      await Promise.all(
        due.map((delivery) =>
          deliverOne(delivery).catch((error) =>
            log.warn({ err: error, id: delivery.id }, "webhook delivery failed"),
          ),
        ),
      );
    }
  }

  const worker = createBackgroundWorker(deliver, {
    pollMs,
    onError: (error) => log.error({ err: error }, "delivering webhooks failed"),
  });

  return {
    async createEndpoint(accountId: string, raw: WebhookEndpointInput) {
      const input = ZWebhookEndpointInput.parse(raw);
      const problem = await endpointProblem(input.url, allowPrivate);
      if (problem) {
        throw new AppError("BAD_REQUEST", `url: ${problem}`, {
          issues: [{ path: "url", message: problem }],
        });
      }
      const secret = `whsec_${randomBytes(24).toString("base64url")}`;
      const row = await repo.createEndpoint({
        accountId,
        url: input.url,
        events: input.events,
        secretCipher: encryptor.seal(secret, sealFor(accountId)),
        createdAt: now(),
      });
      subscriptions.changed(accountId);
      return { ...endpointView(row), secret };
    },

    async listEndpoints(accountId: string): Promise<WebhookEndpointView[]> {
      return (await repo.listEndpoints(accountId)).map(endpointView);
    },

    async removeEndpoint(accountId: string, id: string) {
      if (!(await repo.removeEndpoint(accountId, id)))
        throw new AppError("NOT_FOUND", "No such webhook endpoint in this account.");
      subscriptions.changed(accountId);
    },

    /** Stores the event for every endpoint that wants it; the worker sends it right after. */
    emit(accountId: string, type: WebhookEventType, data: unknown): Promise<void> {
      return this.emitMany(accountId, type, [data]);
    },

    /** One event per item of `data` (a bulk action), in one read and one insert. */
    async emitMany(
      accountId: string,
      type: WebhookEventType,
      data: readonly unknown[],
    ): Promise<void> {
      // Most accounts want no event of most types: then no query at all.
      if (data.length === 0 || !(await subscriptions.wants(accountId, type))) return;
      const stored = await repo.stage(
        accountId,
        data.map((item) => ({ type, data: item })),
        now(),
      );
      if (stored > 0) worker.kick();
    },

    /** For modules that store an event in the transaction of the write it reports. */
    outbox: {
      stage: async (db, accountId, events) => {
        await repo.stage(accountId, events, now(), db);
      },
      kick: () => worker.kick(),
    } satisfies EventOutbox,

    async deliveries(accountId: string): Promise<WebhookDeliveryView[]> {
      const rows = await repo.listDeliveries(accountId, 100);
      return rows.map((row) => ({
        id: row.id,
        endpoint_id: row.endpointId,
        url: row.endpoint.url,
        event_id: row.eventId,
        event_type: row.eventType,
        status: row.status as WebhookDeliveryView["status"],
        attempts: row.attemptLog as Attempt[],
        next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
        created_at: row.createdAt.toISOString(),
      }));
    },

    async resend(accountId: string, id: string) {
      if (!(await repo.resend(accountId, id, now())))
        throw new AppError("NOT_FOUND", "No such webhook delivery in this account.");
      worker.kick();
    },

    /** Deletes delivered and failed deliveries stored before `before` (housekeeping). */
    purgeSettled: (before: Date) => repo.purgeSettled(before),

    /** Sends everything due now; resolves when done (tests, shutdown). */
    flush: worker.runSoon,
    start: worker.start,
    stop: worker.stop,
  };
}

function endpointView(row: {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
}): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    created_at: row.createdAt.toISOString(),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
