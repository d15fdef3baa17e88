/**
 * Decision webhooks: a merchant's endpoints, the events Warden sends them, and the worker
 * that delivers them. A decision's write stores one delivery per subscribed endpoint in its own
 * transaction (outbox.stage), so no request waits for a merchant's server; the worker
 * signs and posts each one, retrying with the outbox's backoff across restarts, and keeps
 * every attempt for the console. At-least-once: receivers de-duplicate by the event id.
 *
 * Tenant-fair: attempts run concurrently, each under the sender's hard deadline, at most a
 * few per endpoint and per account at once (claimDue counts what is in flight on every
 * instance), and a slot that frees up is filled at once, so one account's slow or dead
 * endpoints cannot hold back another's events. An endpoint failing for DISABLE_AFTER_MS with
 * no success is disabled (no new deliveries) and the account's owner is told by email.
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
import type { Mailer } from "../../lib/mailer.ts";
import { retryDelayMs } from "../outbox/outbox.service.ts";
import { endpointProblem } from "./ssrf.ts";
import { createSubscriptions } from "./subscriptions.ts";
import type { WebhookSender } from "./webhook-sender.ts";
import type {
  Attempt,
  ClaimLimits,
  DueDelivery,
  WebhooksRepository,
} from "./webhooks.repository.ts";
import type { EventOutbox } from "./webhooks.types.ts";

const LEASE_MS = 60_000;
const POLL_MS = 5_000;
const MAX_ATTEMPTS = 8;
/** Attempts in flight at once: per instance, and anywhere per endpoint and per account. */
export const DELIVERY_LIMITS = { limit: 64, perEndpoint: 4, perAccount: 8 } satisfies ClaimLimits;
/** Failing this long with no success disables an endpoint. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

type Deps = {
  repo: WebhooksRepository;
  /** Announces endpoint changes to every instance (cached subscriptions). */
  changes: ChangeFeed;
  encryptor: Encryptor;
  send: WebhookSender;
  /** The account emails' outbox: tells the owner that an endpoint was disabled. */
  mail: Mailer;
  /** Where the console is, for the email's link. */
  publicUrl: string;
  allowPrivate: boolean;
  /** Endpoints an account may add (WEBHOOK_ENDPOINTS_PER_ACCOUNT). */
  maxEndpoints: number;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  pollMs?: number;
  limits?: ClaimLimits;
};

const sealFor = (accountId: string) => `webhook-secret:${accountId}`;

export function createWebhooksService({
  repo,
  changes,
  encryptor,
  send,
  mail,
  publicUrl,
  allowPrivate,
  maxEndpoints,
  now,
  log,
  pollMs = POLL_MS,
  limits = DELIVERY_LIMITS,
}: Deps) {
  const subscriptions = createSubscriptions(repo.subscribedTypes, changes, now);
  /** Attempts under way in this process, by delivery id. */
  const inFlight = new Map<string, Promise<void>>();
  let stopping = new AbortController();

  async function deliverOne(delivery: DueDelivery, signal: AbortSignal) {
    const endpoint = await repo.endpointSecret(delivery.endpointId);
    if (!endpoint) return;
    if (endpoint.disabledAt) {
      await repo.failPendingOf(delivery.endpointId);
      return;
    }
    const secret = encryptor.open(endpoint.secretCipher, sealFor(delivery.accountId));
    const started = performance.now();
    const at = now();
    const result = await send(
      endpoint.url,
      delivery.body,
      {
        "warden-signature": await signatureHeader(
          secret,
          Math.floor(at.getTime() / 1000),
          delivery.body,
        ),
        "warden-event-id": delivery.eventId,
        "warden-event-type": delivery.eventType,
      },
      signal,
    );
    // Stopped mid-send: not the receiver's failure; due again at once, here or elsewhere.
    if (signal.aborted && result.error !== null) return repo.release(delivery.id);
    const attempts = delivery.attempts + 1;
    const entry: Attempt = {
      at: at.toISOString(),
      ...result,
      ms: Math.round(performance.now() - started),
    };
    const attemptLog = [...(delivery.attemptLog ?? []), entry].slice(-20);
    const delivered = result.error === null;
    const gaveUp = !delivered && attempts >= MAX_ATTEMPTS;
    await repo.record(delivery.id, {
      status: delivered ? "delivered" : gaveUp ? "failed" : "pending",
      attempts,
      log: attemptLog,
      nextAttemptAt: new Date(now().getTime() + retryDelayMs(attempts)),
      deliveredAt: delivered ? now() : null,
    });
    if (delivered) await repo.endpointSucceeded(delivery.endpointId);
    else await failed(delivery, at, result.error ?? "");
  }

  /** Counts the failure; past DISABLE_AFTER_MS of failing, disables and tells the owner. */
  async function failed(delivery: DueDelivery, at: Date, error: string) {
    const since = await repo.endpointFailed(delivery.endpointId, at);
    // Disabled meanwhile (by an attempt that ended first): this one is given up on too.
    if (!since) return void (await repo.failPendingOf(delivery.endpointId));
    if (at.getTime() - since.getTime() < DISABLE_AFTER_MS) return;
    const disabled = await repo.disableEndpoint(delivery.endpointId, now(), error, since);
    if (!disabled) return;
    subscriptions.changed(delivery.accountId);
    log.warn(
      { accountId: delivery.accountId, endpointId: delivery.endpointId, since },
      "webhook endpoint disabled after failing for days",
    );
    const to = await repo.ownerEmail(delivery.accountId);
    if (to) await mail.send(disabledEmail(to, disabled.url, since, error, publicUrl));
  }

  function begin(delivery: DueDelivery) {
    const running = deliverOne(delivery, stopping.signal)
      .catch((error) => log.warn({ err: error, id: delivery.id }, "webhook delivery failed"))
      .finally(() => {
        inFlight.delete(delivery.id);
        // A slot is free: claim the next due delivery now, not when a batch is done.
        worker.kick();
      });
    inFlight.set(delivery.id, running);
  }

  /** Fills the free slots with due deliveries; returns once they are started, not sent. */
  async function claim(): Promise<void> {
    for (;;) {
      const free = limits.limit - inFlight.size;
      if (free <= 0) return;
      const at = now();
      const due = await repo.claimDue(at, new Date(at.getTime() + LEASE_MS), {
        ...limits,
        limit: free,
      });
      for (const delivery of due) begin(delivery);
      if (due.length < free) return;
    }
  }

  const worker = createBackgroundWorker(claim, {
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
      const row = await repo.createEndpoint(
        {
          accountId,
          url: input.url,
          events: input.events,
          secretCipher: encryptor.seal(secret, sealFor(accountId)),
          createdAt: now(),
        },
        maxEndpoints,
      );
      if (!row) {
        throw new AppError(
          "BAD_REQUEST",
          `An account can have at most ${maxEndpoints} webhook endpoints: remove one to add another.`,
        );
      }
      subscriptions.changed(accountId);
      return { ...endpointView(row), secret };
    },

    async listEndpoints(accountId: string): Promise<WebhookEndpointView[]> {
      return (await repo.listEndpoints(accountId)).map(endpointView);
    },

    /** How many endpoints an account may have, for the console. */
    endpointLimit: () => ({ max: maxEndpoints }),

    /** A disabled endpoint gets deliveries again (its given-up ones can be re-sent). */
    async enableEndpoint(accountId: string, id: string) {
      if (!(await repo.enableEndpoint(accountId, id)))
        throw new AppError("NOT_FOUND", "No such webhook endpoint in this account.");
      subscriptions.changed(accountId);
    },

    async removeEndpoint(accountId: string, id: string) {
      if (!(await repo.removeEndpoint(accountId, id)))
        throw new AppError("NOT_FOUND", "No such webhook endpoint in this account.");
      subscriptions.changed(accountId);
    },

    /**
     * Whether any enabled endpoint of the account wants events of `type`, from memory (the
     * cache is dropped through the change feed on every instance): a decision's event costs no
     * query for an account that wants none.
     */
    wants: subscriptions.wants,

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

    /** One batch of delivered and failed deliveries past their account's retention (housekeeping). */
    purgeSettled: (now: Date, defaultDays: number, batch: number) =>
      repo.purgeSettled(now, defaultDays, batch),

    /** Sends everything due now; resolves when every attempt started is over (tests). */
    async flush(): Promise<void> {
      await worker.runSoon();
      while (inFlight.size > 0) {
        await Promise.all(inFlight.values());
        await worker.runSoon();
      }
    },
    start(): void {
      stopping = new AbortController();
      worker.start();
    },
    /** Stops claiming and cuts the attempts under way; their deliveries are due again. */
    async stop(): Promise<void> {
      await worker.stop();
      stopping.abort();
      await Promise.all(inFlight.values());
    },
  };
}

function disabledEmail(to: string, url: string, since: Date, error: string, publicUrl: string) {
  return {
    to,
    subject: "Warden disabled one of your webhook endpoints",
    text: `Every delivery to your decision webhook endpoint\n${url}\nhas failed since ${since.toUTCString()} (the last: ${error}), so Warden disabled it: it gets no new events.\n\nOnce it answers again, re-enable it in Settings, Decision webhooks: ${publicUrl}/homepage/settings\nDeliveries given up on meanwhile can be re-sent from the delivery log there.\n`,
  };
}

function endpointView(row: {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    created_at: row.createdAt.toISOString(),
    failing_since: row.failingSince?.toISOString() ?? null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
