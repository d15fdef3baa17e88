/**
 * "Test on history": tries rule settings (saved or not) on the account's last days of stored
 * screenings and charges. One pass: seed the counters with the counting rows before the
 * window that a rule can still reach, replay the window's screenings in time order (each
 * judged as of its own time), then judge the charges. Runs as a background job per account
 * (a second start while one runs returns it), with progress to poll and a cancel.
 */
import { randomUUID } from "node:crypto";
import { effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import {
  BACKTEST_ITEM_CAP,
  type BacktestJob,
  type BacktestResult,
  type BacktestSettings,
} from "../../../shared/schemas/backtest.ts";
import type { Policy } from "../../engine/types.ts";
import type { PolicyService } from "../policy/policy.service.ts";
import { keyedFromLegacy } from "../screening/identities.ts";
import type { BacktestRepository } from "./backtest.repository.ts";
import { createReplay } from "./backtest-replay.ts";
import { createTally } from "./backtest-tally.ts";
import { type CounterRow, createReplayCounters, lookback } from "./replay-counters.ts";
import { createStripeHistory } from "./stripe-history.ts";

const DAY_MS = 86_400_000;

export type Progress = (processed: number, total: number) => void;

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
  onProgress: Progress;
  signal: AbortSignal;
}) => Promise<BacktestResult>;

type Deps = {
  repo: BacktestRepository;
  policy: Pick<PolicyService, "features">;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
  /** The account's key for identity digests (screening/identities.ts). */
  digestKeyOf: (accountId: string) => string;
  /** Where background jobs run; without it, in this process (`run`). */
  runJob?: JobRunner;
  /** A job's wall-time limit (default BACKTEST_MAX_MS): past it, it is stopped and fails. */
  maxMs?: number;
};

/** Ten minutes: a million events take about 40 s of CPU (decision 008). */
export const BACKTEST_MAX_MS = 10 * 60 * 1000;

/** The policy the page's settings make, combined as the live policy is. */
export function policyOf(settings: BacktestSettings): Policy {
  const { enabled, settings: ruleSettings } = effectiveRules(
    settings.rules,
    settings.templates,
    settings.rule_settings,
  );
  return {
    rules: settings.rules,
    templates: settings.templates,
    blocklist: settings.blocklist,
    enabled,
    settings: ruleSettings,
  };
}

/**
 * Yields what `batches` yields, asking for the next batch before handing out the current
 * one, so the database reads batch n+1 while the replay judges batch n.
 */
export async function* readAhead<T>(batches: AsyncIterable<T>): AsyncGenerator<T> {
  const it = batches[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = it.next();
      // A rejected read-ahead is reported when it is awaited, not as unhandled meanwhile.
      next.catch(() => {});
      // One turn of the event loop so the query is on the wire before the replay holds the
      // thread (the pool hands out its connection on a later tick).
      await new Promise((resolve) => setImmediate(resolve));
      yield current.value;
    }
  } finally {
    await it.return?.();
  }
}

type Job = NonNullable<BacktestJob> & { abort: AbortController };

const toKeyed = (key: string, value: string) => keyedFromLegacy(key, value);
const keyedOrNull = (key: string, value: string | null) =>
  value === null ? null : keyedFromLegacy(key, value);

/** A counting row stored before keyed digests, with every digest in it keyed. */
function keyedRow(key: string, row: CounterRow): CounterRow {
  return {
    ...row,
    subject: keyedOrNull(key, row.subject),
    user: keyedOrNull(key, row.user),
    card: keyedOrNull(key, row.card),
    promo: keyedOrNull(key, row.promo),
  };
}

export function createBacktestService({
  repo,
  policy: policies,
  now,
  log,
  digestKeyOf,
  runJob,
  maxMs = BACKTEST_MAX_MS,
}: Deps) {
  const jobs = new Map<string, Job>();

  async function run(
    accountId: string,
    settings: BacktestSettings,
    onProgress: Progress = () => {},
    signal?: AbortSignal,
  ): Promise<BacktestResult> {
    const started = performance.now();
    const to = now();
    const window = { from: new Date(to.getTime() - settings.days * DAY_MS), to };
    const policy = policyOf(settings);
    const keep = lookback(policy);
    const counters = createReplayCounters(keep);
    const digestKey = digestKeyOf(accountId);
    for await (const batch of readAhead(repo.seeds(accountId, window.from, keep))) {
      signal?.throwIfAborted();
      for (const seed of batch) {
        // Rows stored before keyed digests: turned into their keyed form (decision 013).
        if (seed.keyed) counters.seed(seed.kind, seed.value, seed.row);
        else
          counters.seed(seed.kind, toKeyed(digestKey, seed.value), keyedRow(digestKey, seed.row));
      }
    }
    counters.settle();
    const farming = policy.settings.rule_farming;
    const history = createStripeHistory(
      policy.enabled.rule_farming && farming.refunds
        ? await repo.refundHistory(
            accountId,
            Math.floor((window.from.getTime() - farming.refund_window_days * DAY_MS) / 1000),
          )
        : [],
    );
    const replay = createReplay({
      policy,
      features: policies.features(),
      counters,
      history,
      digestKey,
    });
    const tally = createTally(BACKTEST_ITEM_CAP);
    const labels = await repo.labels(accountId);
    const totals = await repo.totals(accountId, window);
    const total = totals.screenings + totals.charges;
    let processed = 0;
    onProgress(0, total);
    for await (const batch of readAhead(repo.screenings(accountId, window))) {
      signal?.throwIfAborted();
      for (const row of batch) {
        const input = row.input;
        tally.record(
          "screening",
          replay.screening(row),
          row.createdAt.getTime(),
          () => ({
            id: row.id,
            label: [input.type, input.email ?? input.user_id ?? input.ip].filter(Boolean).join(" "),
            refunded: false,
            disputed: false,
          }),
          labels.get(`screening:${row.id}`),
        );
      }
      processed += batch.length;
      onProgress(processed, Math.max(total, processed));
    }
    for await (const batch of readAhead(repo.charges(accountId, window))) {
      signal?.throwIfAborted();
      for (const row of batch) {
        tally.record(
          "charge",
          replay.charge(row),
          row.created * 1000,
          () => ({
            id: row.chargeId,
            label: `${row.email ?? "no email"} · ${(row.amount / 100).toFixed(2)} ${row.currency.toUpperCase()}`,
            refunded: row.refunded || row.amountRefunded > 0,
            disputed: row.disputed,
          }),
          labels.get(`charge:${row.chargeId}`),
        );
      }
      processed += batch.length;
      onProgress(processed, Math.max(total, processed));
    }
    return tally.result(window, performance.now() - started);
  }

  const view = (job: Job | undefined): BacktestJob => {
    if (!job) return null;
    const { abort: _abort, ...rest } = job;
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
        unsaved: settings.unsaved,
        error: null,
        result: null,
        abort: new AbortController(),
      };
      jobs.set(accountId, job);
      const progress: Progress = (processed, total) => {
        job.processed = processed;
        job.total = total;
      };
      const overtime = AbortSignal.timeout(maxMs);
      const signal = AbortSignal.any([job.abort.signal, overtime]);
      const work = runJob
        ? runJob({
            accountId,
            digestKey: digestKeyOf(accountId),
            settings,
            now: now(),
            onProgress: progress,
            signal,
          })
        : run(accountId, settings, progress, signal);
      work.then(
        (result) => {
          if (job.abort.signal.aborted) return;
          job.status = "done";
          job.result = result;
        },
        (error: unknown) => {
          if (job.abort.signal.aborted) {
            job.status = "cancelled";
            return;
          }
          job.status = "failed";
          if (overtime.aborted) {
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

    /** Cancels every running job (the server is stopping): their processes end with it. */
    stop() {
      for (const job of jobs.values()) {
        if (job.status !== "running") continue;
        job.abort.abort();
        job.status = "cancelled";
      }
    },

    /** Stops the running backtest; its status becomes "cancelled". */
    cancel(accountId: string): BacktestJob {
      const job = jobs.get(accountId);
      if (job?.status === "running") {
        job.abort.abort();
        job.status = "cancelled";
      }
      return view(job);
    },
  };
}

export type BacktestService = ReturnType<typeof createBacktestService>;
