/**
 * "Test on history": tries rule settings (saved or not) on the account's last days of stored
 * screenings and charges (one pass, backtest-run.ts). Runs as a background job per account
 * (a second start while one runs returns it), with progress to poll and a cancel. Jobs take
 * turns wherever they run (backtest-slots.ts), and the wall-time limit counts from a job's
 * turn, not from its start.
 */
import { randomUUID } from "node:crypto";
import type {
  BacktestJob,
  BacktestResult,
  BacktestSettings,
} from "../../../shared/schemas/backtest.ts";
import { createBacktestRun, type Progress, type RunDeps } from "./backtest-run.ts";
import { createJobSlots } from "./backtest-slots.ts";
import type { TruthLabel } from "./backtest-tally.ts";

export { type Progress, policyOf } from "./backtest-run.ts";
export { readAhead } from "./read-ahead.ts";

/**
 * Runs a job's backtest somewhere other than this thread (backtest-child.ts: a process of its
 * own on PostgreSQL), as of `now`, reporting progress; aborting `signal` stops it.
 */
export type JobRunner = (job: {
  accountId: string;
  /** The account's digest key (the child process holds no secret to derive it). */
  digestKey: string;
  settings: BacktestSettings;
  now: Date;
  /** The labelled screenings' verdicts (RunDeps.truths), read here: the child has no Prisma. */
  truths: [string, TruthLabel][];
  onProgress: Progress;
  signal: AbortSignal;
}) => Promise<BacktestResult>;

type Deps = RunDeps & {
  log: { error(obj: object, msg: string): void };
  /** Where background jobs run; without it, in this process (`run`). */
  runJob?: JobRunner;
  /**
   * A job's wall-time limit (default BACKTEST_MAX_MS), counted from when it starts running,
   * not from when it was queued: past it, it is stopped and fails.
   */
  maxMs?: number;
  /** Jobs running at once on this instance (default 2); one per account whatever this is. */
  maxRunning?: number;
};

/** Ten minutes: a million events take about 40 s of CPU (decision 008). */
export const BACKTEST_MAX_MS = 10 * 60 * 1000;

/** A job, with the read of the settings' saved time it started with (awaited by `report`). */
type Job = NonNullable<BacktestJob> & { abort: AbortController; savedRead: Promise<void> };

export function createBacktestService({
  repo,
  policy,
  now,
  log,
  digestKeyOf,
  truths,
  runJob,
  maxMs = BACKTEST_MAX_MS,
  maxRunning = 2,
}: Deps) {
  const jobs = new Map<string, Job>();
  const slots = createJobSlots(maxRunning);
  const run = createBacktestRun({ repo, policy, now, digestKeyOf, truths });

  const view = (job: Job | undefined): BacktestJob => {
    if (!job) return null;
    const { abort: _abort, savedRead: _savedRead, ...rest } = job;
    return rest;
  };

  return {
    run,

    /** Starts a backtest in the background, or returns the one already running. */
    start(accountId: string, settings: BacktestSettings): BacktestJob {
      const running = jobs.get(accountId);
      if (running?.status === "running") return view(running);
      const job: Job = {
        id: randomUUID(),
        status: "running",
        days: settings.days,
        processed: 0,
        total: 0,
        startedAt: now().toISOString(),
        finishedAt: null,
        settingsSavedAt: null,
        settingsChanged: false,
        unsaved: settings.unsaved,
        error: null,
        result: null,
        abort: new AbortController(),
        savedRead: Promise.resolve(),
      };
      // Which saved settings the page's were (its unsaved changes laid over them).
      job.savedRead = repo.settingsSavedAt(accountId).then(
        (at) => {
          job.settingsSavedAt = at?.toISOString() ?? null;
        },
        (error: unknown) => log.error({ err: error, accountId }, "reading settings' time failed"),
      );
      jobs.set(accountId, job);
      const progress: Progress = (processed, total) => {
        job.processed = processed;
        job.total = total;
      };
      // Shown as running while it waits for its turn; the clock starts when it gets one.
      const clock: { overtime: AbortSignal | null } = { overtime: null };
      const work = slots.take(accountId, job.abort.signal).then(async (release) => {
        try {
          clock.overtime = AbortSignal.timeout(maxMs);
          const signal = AbortSignal.any([job.abort.signal, clock.overtime]);
          return await (runJob
            ? runJob({
                accountId,
                digestKey: digestKeyOf(accountId),
                settings,
                now: now(),
                truths: [...((await truths?.(accountId)) ?? [])],
                onProgress: progress,
                signal,
              })
            : run(accountId, settings, progress, signal));
        } finally {
          release();
        }
      });
      work.then(
        (result) => {
          if (job.abort.signal.aborted) return;
          job.finishedAt = now().toISOString();
          job.status = "done";
          job.result = result;
        },
        (error: unknown) => {
          if (job.abort.signal.aborted) {
            job.status = "cancelled";
            return;
          }
          job.finishedAt = now().toISOString();
          job.status = "failed";
          if (clock.overtime?.aborted) {
            const limit =
              maxMs >= 60_000 ? `${Math.round(maxMs / 60_000)} min` : `${maxMs / 1000} s`;
            job.error = `The backtest took longer than ${limit} and was stopped; try fewer days.`;
            log.error({ accountId, maxMs }, "backtest stopped at its time limit");
            return;
          }
          job.error = "The backtest failed; try again.";
          log.error({ err: error, accountId }, "backtest failed");
        },
      );
      return view(job);
    },

    /** The account's latest backtest (running or finished), or null. */
    status(accountId: string): BacktestJob {
      return view(jobs.get(accountId));
    },

    /**
     * The latest backtest as the Rules page shows it: with whether the settings were saved
     * since it started (then its result no longer says what they do).
     */
    async report(accountId: string): Promise<BacktestJob> {
      const job = jobs.get(accountId);
      if (!job) return null;
      await job.savedRead;
      const savedAt = await repo.settingsSavedAt(accountId);
      const startedWith = job.settingsSavedAt ? Date.parse(job.settingsSavedAt) : null;
      const settingsChanged =
        savedAt !== null && (startedWith === null || savedAt.getTime() > startedWith);
      return { ...view(job), settingsChanged } as BacktestJob;
    },

    /** Cancels every running job (the server is stopping): their processes end with it. */
    stop() {
      for (const job of jobs.values()) {
        if (job.status !== "running") continue;
        job.abort.abort();
        job.status = "cancelled";
        job.finishedAt = now().toISOString();
      }
    },

    /** Stops the running backtest; its status becomes "cancelled". */
    cancel(accountId: string): BacktestJob {
      const job = jobs.get(accountId);
      if (job?.status === "running") {
        job.abort.abort();
        job.status = "cancelled";
        job.finishedAt = now().toISOString();
      }
      return view(job);
    },
  };
}

export type BacktestService = ReturnType<typeof createBacktestService>;
