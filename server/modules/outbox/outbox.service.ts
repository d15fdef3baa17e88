/**
 * The durable outbox for account emails. send() only records the email (one insert), so a
 * request never waits for SMTP and a known and an unknown address answer alike; a worker in
 * the background hands each email to the mailer, retrying with backoff across restarts.
 */

import { createBackgroundWorker } from "../../lib/background-worker.ts";
import type { Mail, Mailer } from "../../lib/mailer.ts";
import type { OutboxRepository } from "./outbox.repository.ts";

const BATCH = 10;
const LEASE_MS = 60_000;
const POLL_MS = 5_000;
const MAX_ATTEMPTS = 8;

type Deps = {
  repo: OutboxRepository;
  /** Where emails really go: SMTP, or .eml files without SMTP_URL. */
  transport: Mailer;
  now: () => Date;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  pollMs?: number;
};

/** Backoff after the n-th failure: 10 s, 40 s, 160 s, ... capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 10_000 * 4 ** Math.max(0, attempts - 1));
}

export function createOutboxService({ repo, transport, now, log, pollMs = POLL_MS }: Deps) {
  async function deliver(): Promise<void> {
    for (;;) {
      const at = now();
      const due = await repo.claimDue(at, new Date(at.getTime() + LEASE_MS), BATCH);
      if (due.length === 0) return;
      for (const mail of due) {
        try {
          await transport.send({ to: mail.to, subject: mail.subject, text: mail.text });
          await repo.markSent(mail.id);
        } catch (error) {
          const attempts = mail.attempts + 1;
          const gaveUp = attempts >= MAX_ATTEMPTS ? now() : null;
          const message = (error as Error)?.message ?? String(error);
          log.warn({ err: error, attempts, gaveUp: gaveUp !== null }, "email not sent");
          await repo.markFailed(mail.id, {
            attempts,
            nextAttemptAt: new Date(now().getTime() + retryDelayMs(attempts)),
            error: message.slice(0, 500),
            gaveUp,
          });
        }
      }
    }
  }

  const worker = createBackgroundWorker(deliver, {
    pollMs,
    onError: (error) => log.error({ err: error }, "sending queued emails failed"),
  });

  return {
    /** Queues the email; the worker sends it right after (or at the next poll). */
    async send(mail: Mail): Promise<void> {
      await repo.enqueue(mail, now());
      worker.kick();
    },
    /** Sends everything due now; resolves when done (tests, shutdown). */
    flush: worker.runSoon,
    start: worker.start,
    stop: worker.stop,
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
