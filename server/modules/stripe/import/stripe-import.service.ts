/**
 * Importing a merchant's past charges through Stripe's list API, recorded as webhooks would
 * record them but without acting on them. The Settings page's button starts it in the
 * background and polls its job; `npm run backfill` runs the same import in the foreground.
 * A job beats every few seconds while it runs; one that stopped beating died with its
 * process, and the next start imports again from the beginning (re-imports change nothing).
 */
import type Stripe from "stripe";
import { AppError } from "../../../lib/app-error.ts";
import type { StripeClientFactory, StripeCredentials } from "../../../lib/stripe-client.ts";
import type { StripeIngestService } from "../ingest/stripe-ingest.service.ts";
import type { ImportJobsRepository } from "./import-jobs.repository.ts";

const DAY = 86_400;
export const HEARTBEAT_MS = 5_000;
/** A running job whose heartbeat is older than this died with its process. */
export const STALE_MS = 60_000;

type Deps = {
  jobs: ImportJobsRepository;
  credentials: StripeCredentials;
  ingest: StripeIngestService;
  stripeFor: StripeClientFactory;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
};

export type ImportProgress = (imported: number, percent: number) => void;

export function createStripeImportService({
  jobs,
  credentials,
  ingest,
  stripeFor,
  now,
  log,
}: Deps) {
  async function secretKeyOf(accountId: string): Promise<string> {
    const { secretKey } = await credentials.stripeCredentials(accountId);
    if (!secretKey) {
      throw new AppError("BAD_REQUEST", "Add your Stripe secret key in Settings first.");
    }
    return secretKey;
  }

  /** Lists charges created in the last `days` (auto-paginated) and records each one. */
  async function runJob(
    accountId: string,
    jobId: string,
    days: number,
    secretKey: string,
    onProgress?: ImportProgress,
  ): Promise<number> {
    const since = Math.floor(now().getTime() / 1000) - days * DAY;
    let imported = 0;
    const beat = setInterval(() => void jobs.heartbeat(jobId, now()).catch(() => {}), HEARTBEAT_MS);
    beat.unref();
    try {
      const list = stripeFor(secretKey).charges.list({
        created: { gte: since },
        limit: 100,
        expand: ["data.customer"],
      });
      for await (const charge of list) {
        await ingest.ingest(accountId, importEvent(charge), { act: false });
        imported += 1;
        const age = Math.floor(now().getTime() / 1000) - charge.created;
        const percent = Math.min(99, Math.max(0, Math.round((age / (days * DAY)) * 100)));
        onProgress?.(imported, percent);
        if (imported % 25 === 0) await jobs.progress(jobId, imported, percent, now());
      }
      await jobs.finish(jobId, { imported, status: "done" });
      onProgress?.(imported, 100);
      return imported;
    } catch (error) {
      await jobs.finish(jobId, { imported, status: "failed", error: (error as Error).message });
      throw error;
    } finally {
      clearInterval(beat);
    }
  }

  return {
    /** Starts importing `days` of charges in the background; returns the job. */
    async start(accountId: string, days: number) {
      const secretKey = await secretKeyOf(accountId);
      const { job, started } = await jobs.claim(accountId, days, now(), STALE_MS);
      if (!started) return job;
      void runJob(accountId, job.id, days, secretKey).catch((error) =>
        log.error({ err: error, jobId: job.id }, "charge import failed"),
      );
      return job;
    },

    status(accountId: string) {
      return jobs.latest(accountId);
    },

    /** Imports in the foreground (the backfill script), reporting progress; returns the count. */
    async run(accountId: string, days: number, onProgress?: ImportProgress): Promise<number> {
      const secretKey = await secretKeyOf(accountId);
      const { job, started } = await jobs.claim(accountId, days, now(), STALE_MS);
      if (!started) throw new AppError("CONFLICT", "An import is already running.");
      return runJob(accountId, job.id, days, secretKey, onProgress);
    },
  };
}

/** A charge from the list API in the shape of an event, with an id that repeats on re-runs. */
function importEvent(charge: Stripe.Charge): Stripe.Event {
  return {
    id: `import_${charge.id}`,
    object: "event",
    api_version: null,
    created: charge.created,
    data: { object: charge },
    livemode: charge.livemode,
    pending_webhooks: 0,
    request: null,
    type: "charge.updated",
  } as unknown as Stripe.Event;
}

export type StripeImportService = ReturnType<typeof createStripeImportService>;
