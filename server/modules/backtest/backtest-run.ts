/**
 * One backtest, start to end, in this thread: seed the counters with the counting rows before
 * the window that a rule can still reach, replay the window's screenings in time order (each
 * judged as of its own time, with the allow list as it stood then), then judge the charges,
 * and tally what the settings would have decided. backtest.service.ts runs it as a job (here
 * or in a child process).
 */

import { effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import {
  BACKTEST_ITEM_CAP,
  type BacktestResult,
  type BacktestSettings,
} from "../../../shared/schemas/backtest.ts";
import { thresholdsInForce } from "../../../shared/score/thresholds.ts";
import { DEFAULT_WEIGHTS } from "../../engine/default-weights.ts";
import type { Policy } from "../../engine/types.ts";
import type { PolicyService } from "../policy/policy.service.ts";
import { keyedFromLegacy } from "../screening/screening.entry.ts";
import { allowListTimeline } from "./allow-list-timeline.ts";
import type { BacktestRepository } from "./backtest.repository.ts";
import { createReplay } from "./backtest-replay.ts";
import { createTally, type TruthLabel } from "./backtest-tally.ts";
import { readAhead } from "./read-ahead.ts";
import { type CounterRow, createReplayCounters, lookback } from "./replay-counters.ts";
import { createStripeHistory } from "./stripe-history.ts";

const DAY_MS = 86_400_000;

export type Progress = (processed: number, total: number) => void;

export type RunDeps = {
  repo: BacktestRepository;
  policy: Pick<PolicyService, "features">;
  now: () => Date;
  /** The account's key for identity digests (screening/features/identities.ts). */
  digestKeyOf: (accountId: string) => string;
  /**
   * Each labelled screening's verdict, keyed "screening:<id>": the one count of labels
   * (scoring/label-verdicts.ts), read by the server (a job in a process of its own is handed
   * them). Without it, nothing is labelled.
   */
  truths?: (accountId: string) => Promise<Map<string, TruthLabel>>;
};

/** The policy the page's settings make, combined as the live policy is. */
/**
 * The policy a backtest replays: the settings tried, and the risk score with the shipped
 * weights and the thresholds of the templates tried (a merchant's own thresholds and adopted
 * weights are not replayed yet).
 */
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
    score: {
      weights: DEFAULT_WEIGHTS,
      thresholds: thresholdsInForce(settings.templates, {}, DEFAULT_WEIGHTS.thresholds),
    },
  };
}

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

export function createBacktestRun({
  repo,
  policy: policies,
  now,
  digestKeyOf,
  truths = async () => new Map(),
}: RunDeps) {
  /** Counters holding what a rule of `policy` can still see before the window. */
  async function seededCounters(
    accountId: string,
    policy: Policy,
    from: Date,
    digestKey: string,
    signal?: AbortSignal,
  ) {
    const keep = lookback(policy);
    const counters = createReplayCounters(keep);
    for await (const batch of readAhead(repo.seeds(accountId, from, keep))) {
      signal?.throwIfAborted();
      for (const seed of batch) {
        // Rows stored before keyed digests: turned into their keyed form (decision 013).
        if (seed.keyed) counters.seed(seed.kind, seed.value, seed.row);
        else
          counters.seed(seed.kind, toKeyed(digestKey, seed.value), keyedRow(digestKey, seed.row));
      }
    }
    counters.settle();
    return counters;
  }

  /** The refunds the farming rule counts, read only when it is on and counts them. */
  async function refundHistory(accountId: string, policy: Policy, from: Date) {
    const farming = policy.settings.rule_farming;
    return createStripeHistory(
      policy.enabled.rule_farming && farming.refunds
        ? await repo.refundHistory(
            accountId,
            Math.floor((from.getTime() - farming.refund_window_days * DAY_MS) / 1000),
          )
        : [],
    );
  }

  /** Runs one backtest of `settings` on the account's history, as of now. */
  return async function run(
    accountId: string,
    settings: BacktestSettings,
    onProgress: Progress = () => {},
    signal?: AbortSignal,
  ): Promise<BacktestResult> {
    const started = performance.now();
    const to = now();
    // The dashboard's window (decision 010): `days` whole UTC days, today included, to now.
    const firstDay = Math.floor(to.getTime() / DAY_MS) - (settings.days - 1);
    const window = { from: new Date(firstDay * DAY_MS), to };
    const policy = policyOf(settings);
    const digestKey = digestKeyOf(accountId);
    const counters = await seededCounters(accountId, policy, window.from, digestKey, signal);
    const history = await refundHistory(accountId, policy, window.from);
    const replay = createReplay({
      policy,
      features: policies.features(),
      counters,
      history,
      digestKey,
      allowList: allowListTimeline(await repo.allowEntries(accountId)),
    });
    const tally = createTally(BACKTEST_ITEM_CAP);
    const labels = await truths(accountId);
    const totals = await repo.totals(accountId, window);
    tally.notJudged(totals.notJudged);
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
        tally.record("charge", replay.charge(row), row.created * 1000, () => ({
          id: row.chargeId,
          label: `${row.email ?? "no email"} · ${(row.amount / 100).toFixed(2)} ${row.currency.toUpperCase()}`,
          refunded: row.refunded || row.amountRefunded > 0,
          disputed: row.disputed,
        }));
      }
      processed += batch.length;
      onProgress(processed, Math.max(total, processed));
    }
    return tally.result(window, performance.now() - started);
  };
}
