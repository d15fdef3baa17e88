/**
 * Carries out the refunds and cancellations that ingestion decided. Each action was stored
 * before any call; it is claimed under a lease (so two instances never run it at once),
 * sent with its idempotency key (so a retry after a crash never refunds twice), and retried
 * with backoff until Stripe answers. A Stripe answer of "already done" counts as done.
 * A refused key (401/403) or no key at all is not the action's fault: it waits, visibly, for
 * the merchant to fix the key (retried every few hours, and at once when a key is saved).
 * A cancel that lost the race with a capture becomes a refund, so no blocked money is kept.
 */
import type Stripe from "stripe";
import type { StripeAction } from "../../../db/generated/client.ts";
import { createBackgroundWorker } from "../../../lib/background-worker.ts";
import {
  CALL_TIMEOUT_MS,
  isStripeAnswer,
  type StripeClientFactory,
  type StripeCredentials,
} from "../../../lib/stripe-client.ts";
import type { DecisionEvent, EventOutbox } from "../../webhooks/webhooks.types.ts";
import type { Finished, StripeActionsRepository } from "./stripe-actions.repository.ts";

const BATCH = 10;
/** A claimed batch is run one call at a time: the lease covers every call timing out. */
export const LEASE_MS = BATCH * CALL_TIMEOUT_MS + 60_000;
/** How often an action waiting for a working key tries again by itself. */
export const ATTENTION_RETRY_MS = 6 * 60 * 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** 1 s, 2 s, 4 s ... capped at 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

type Deps = {
  repo: StripeActionsRepository;
  credentials: StripeCredentials;
  stripeFor: StripeClientFactory;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  pollMs?: number;
  /**
   * The decision events of an action done (charge.refunded_by_rule, and review.denied when it
   * closed the charge's review), stored in the transaction that records it done; null when no
   * endpoint of the account wants them (then no transaction: one statement).
   */
  eventsOf?: (
    action: StripeAction,
  ) => Promise<((done: Finished & { stripeObjectId: string | null }) => DecisionEvent[]) | null>;
  outbox?: EventOutbox;
};

export const NOT_CONNECTED =
  "Stripe is not connected: add your Stripe secret key in Settings, and Warden carries this out as soon as it is saved.";

export const KEY_REFUSED =
  "Stripe refused Warden's key for this call. Fix the secret key in Settings (a rolled key, or a restricted key without write access to refunds and PaymentIntents): Warden carries this out again as soon as a working key is saved.";

export const CANCEL_LOST_RACE =
  "The payment was captured before the cancel reached Stripe: refunding it instead.";

const ALREADY_DONE = new Set(["charge_already_refunded", "payment_intent_unexpected_state"]);

/** Stripe's answer to a cancel of a PaymentIntent that was captured meanwhile. */
function capturedMeanwhile(error: Stripe.errors.StripeError): boolean {
  const intent = (error.raw as { payment_intent?: { status?: string } } | undefined)
    ?.payment_intent;
  return (
    error.code === "payment_intent_unexpected_state" &&
    (intent?.status === "succeeded" ||
      /status of succeeded|status is succeeded/i.test(error.message))
  );
}

export function createStripeActionsService({
  repo,
  credentials,
  stripeFor,
  now,
  log,
  pollMs = 5000,
  eventsOf,
  outbox,
}: Deps) {
  async function done(action: StripeAction, stripeObjectId: string | null): Promise<void> {
    // A simulated action is the demo's: its events never reach the merchant's endpoints.
    const events = outbox && eventsOf && !action.simulated ? await eventsOf(action) : null;
    const stage =
      outbox && events
        ? (db: Parameters<EventOutbox["stage"]>[0], finished: Finished) =>
            outbox.stage(db, action.accountId, events({ ...finished, stripeObjectId }))
        : undefined;
    const held = await repo.finishAction(action, { status: "done", stripeObjectId }, stage);
    if (held && stage) outbox?.kick();
  }

  async function call(stripe: Stripe, action: StripeAction): Promise<string> {
    const options = { idempotencyKey: action.idempotencyKey };
    if (action.kind === "refund") {
      const refund = await stripe.refunds.create(
        {
          charge: action.targetId,
          reason: "fraudulent",
          metadata: { warden_reason: action.reason.slice(0, 500) },
        },
        options,
      );
      return refund.id;
    }
    const intent = await stripe.paymentIntents.cancel(
      action.targetId,
      { cancellation_reason: "fraudulent" },
      options,
    );
    return intent.id;
  }

  async function waitForKey(action: StripeAction, error: string): Promise<void> {
    const nextAttemptAt = new Date(now().getTime() + ATTENTION_RETRY_MS);
    await repo.finishAction(action, { status: "needs_attention", error, nextAttemptAt });
  }

  async function execute(action: StripeAction): Promise<void> {
    if (action.simulated) {
      await done(action, null);
      return;
    }
    const { secretKey } = await credentials.stripeCredentials(action.accountId);
    if (!secretKey) {
      await waitForKey(action, NOT_CONNECTED);
      return;
    }
    try {
      const objectId = await call(stripeFor(secretKey), action);
      await done(action, objectId);
    } catch (error) {
      const message = (error as Error).message || "Stripe call failed";
      if (isStripeAnswer(error)) {
        const code = error.code ?? "";
        if (error.statusCode === 401 || error.statusCode === 403) {
          await waitForKey(action, `${KEY_REFUSED} Stripe said: ${message}`);
        } else if (action.kind === "cancel" && capturedMeanwhile(error)) {
          await repo.replaceWithRefund(action, {
            idempotencyKey: `warden:${action.chargeId}:refund`,
            note: CANCEL_LOST_RACE,
            dueAt: now(),
          });
        } else if (
          ALREADY_DONE.has(code) &&
          /already (been )?(refunded|canceled)|status of canceled/i.test(message)
        ) {
          await done(action, null);
        } else {
          await repo.finishAction(action, { status: "failed", error: message });
        }
        return;
      }
      const nextAttemptAt = new Date(now().getTime() + backoffMs(action.attempts));
      log.warn(
        { actionId: action.id, attempts: action.attempts, err: message },
        "Stripe call failed; will retry",
      );
      await repo.finishAction(action, { status: "pending", error: message, nextAttemptAt });
    }
  }

  /** Runs every due action once; returns how many it ran. */
  async function runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await repo.claimDueActions(now(), LEASE_MS, BATCH);
      if (batch.length === 0) return total;
      for (const action of batch) await execute(action);
      total += batch.length;
    }
  }

  const worker = createBackgroundWorker(runDue, {
    pollMs,
    onError: (error) => {
      log.error({ err: error }, "running Stripe actions failed");
      return 0;
    },
  });

  return {
    /** Runs every due action once (or waits for the run under way); resolves with the count. */
    runDue: worker.runSoon,
    /** After a new secret key was saved: what waited for a working key runs now. */
    async resume(accountId: string): Promise<void> {
      if ((await repo.resumeWaiting(accountId, now())) > 0) worker.kick();
    },
    /** After an action was recorded: carry it out now rather than at the next poll. */
    kick: worker.kick,
    /** Polls for due actions (retries, and anything left by a restart). */
    start: worker.start,
    stop: worker.stop,
  };
}

export type StripeActionsService = ReturnType<typeof createStripeActionsService>;
