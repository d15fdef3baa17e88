/**
 * Carries out the refunds and cancellations that ingestion decided. Each action was stored
 * before any call; it is claimed under a lease (so two instances never run it at once),
 * sent with its idempotency key (so a retry after a crash never refunds twice), and retried
 * with backoff until Stripe answers. A Stripe answer of "already done" counts as done.
 */
import type Stripe from "stripe";
import type { StripeAction } from "../../../db/generated/client.ts";
import {
  isStripeAnswer,
  type StripeClientFactory,
  type StripeCredentials,
} from "../../../lib/stripe-client.ts";
import type { StripeActionsRepository } from "./stripe-actions.repository.ts";

const LEASE_MS = 60_000;
const BATCH = 10;
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
};

export const NOT_CONNECTED =
  "Stripe is not connected, so Warden could not carry this out: add your Stripe secret key in Settings, then refund or cancel this charge from your Stripe Dashboard.";

const ALREADY_DONE = new Set(["charge_already_refunded", "payment_intent_unexpected_state"]);

export function createStripeActionsService({
  repo,
  credentials,
  stripeFor,
  now,
  log,
  pollMs = 5000,
}: Deps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

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

  async function execute(action: StripeAction): Promise<void> {
    if (action.simulated) {
      await repo.finishAction(action, { status: "done", stripeObjectId: null });
      return;
    }
    const { secretKey } = await credentials.stripeCredentials(action.accountId);
    if (!secretKey) {
      await repo.finishAction(action, { status: "failed", error: NOT_CONNECTED });
      return;
    }
    try {
      const objectId = await call(stripeFor(secretKey), action);
      await repo.finishAction(action, { status: "done", stripeObjectId: objectId });
    } catch (error) {
      const message = (error as Error).message || "Stripe call failed";
      if (isStripeAnswer(error)) {
        const code = (error as { code?: string }).code ?? "";
        if (
          ALREADY_DONE.has(code) &&
          /already (been )?(refunded|canceled)|status of canceled/i.test(message)
        ) {
          await repo.finishAction(action, { status: "done", stripeObjectId: null });
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

  /** One run at a time; a request during a run schedules one more right after it. */
  function runSoon(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = runDue()
      .catch((error) => {
        log.error({ err: error }, "running Stripe actions failed");
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void runSoon();
        }
      });
    return running;
  }

  return {
    runDue: runSoon,
    /** After an action was recorded: carry it out now rather than at the next poll. */
    kick(): void {
      if (timer) void runSoon();
    },
    /** Polls for due actions (retries, and anything left by a restart). */
    start(): void {
      timer ??= setInterval(() => void runSoon(), pollMs);
      timer.unref();
      void runSoon();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type StripeActionsService = ReturnType<typeof createStripeActionsService>;
