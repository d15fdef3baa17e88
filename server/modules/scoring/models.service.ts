/**
 * Labels that teach: a merchant's own risk-score weights, fitted from its labels and adopted
 * only when a member says so. Propose reads the labelled screenings (training-set.ts), fits
 * weights that stay close to those in force (model-backtest.ts, in a worker thread, never on a
 * screening's path), judges them against the weights in force on the merchant's own history,
 * and stores the proposal with that backtest. A proposal's warnings (model-warnings.ts) are
 * read from what is stored with it; adopt puts a version in force only when each of its
 * warnings is confirmed, and keeps which; rollback goes back to the one before (or the shipped
 * defaults). Both tell every instance to reload the policy.
 */
import {
  type AdoptModel,
  MIN_LABELS_PER_CLASS,
  type ModelMetrics,
  type ModelWarning,
  RECENT_DAYS,
  type ScoreModels,
  type ScoreModelView,
  ZAdoptModel,
} from "../../../shared/schemas/score-models.ts";
import type { Thresholds, Weights } from "../../../shared/score/weights.ts";
import { DEFAULT_WEIGHTS } from "../../engine/default-weights.ts";
import type { Policy } from "../../engine/types.ts";
import { AppError } from "../../lib/app-error.ts";
import { createLabelVerdicts } from "./label-verdicts.ts";
import {
  actionOf,
  count,
  emptyOutcome,
  LAMBDA,
  type Proposal,
  weightChanges,
} from "./model-backtest.ts";
import type { FitJob } from "./model-fit.worker.ts";
import { viewOf } from "./model-view.ts";
import type { ModelsRepository } from "./models.repository.ts";
import type { ScreeningKeyset, TrainingRepository } from "./training.repository.ts";
import { createRowSet, FOLDS, topSource, type VerdictSource } from "./training-set.ts";

/** Versions a list shows. */
const LISTED = 50;
/** Fits running at once in this process (each one thread). */
const MAX_FITS = 2;
const PAGE = 5_000;
/** Screenings of the last RECENT_DAYS days a backtest counts, newest first. */
const MAX_RECENT = 1_000_000;
const DAY_MS = 86_400_000;

type Deps = {
  models: ModelsRepository;
  training: TrainingRepository;
  policy: { load(accountId: string): Promise<Policy> };
  /** Tells every instance the account's policy changed (wiring/policy.ts onChange). */
  onChange: (accountId: string) => void;
  now: () => Date;
  runFit: (job: FitJob) => Promise<Proposal>;
};

export function createModelsService({ models, training, policy, onChange, now, runFit }: Deps) {
  const verdicts = createLabelVerdicts({ training, now });
  const fitting = new Set<string>();

  async function list(accountId: string): Promise<ScoreModels> {
    const rows = await models.list(accountId, LISTED);
    const views = rows.flatMap((row) => viewOf(row) ?? []);
    const adopted =
      views.find((m) => m.status === "adopted") ?? viewOf(await models.adopted(accountId));
    return {
      in_force: adopted
        ? {
            version: adopted.weights.version,
            model_id: adopted.id,
            confirmed_warnings: adopted.confirmed_warnings,
          }
        : { version: DEFAULT_WEIGHTS.version, model_id: null, confirmed_warnings: [] },
      models: views,
    };
  }

  /**
   * The account's labelled screenings with signal values, packed for the fit; how many came
   * from each kind of verdict, and the member or API key that gave the most.
   */
  async function labelled(accountId: string) {
    const { rows, capped } = await verdicts.all(accountId);
    const set = createRowSet();
    const from: Record<VerdictSource, number> = { labels: 0, reviews: 0, stripe: 0 };
    const sources = new Map<string, number>();
    for (let i = 0; i < rows.length; i += PAGE) {
      const page = rows.slice(i, i + PAGE);
      const byId = new Map(page.map((r) => [r.id, r]));
      for (const row of await training.features(accountId, [...byId.keys()])) {
        const verdict = byId.get(row.id);
        if (!verdict) continue;
        set.add(row, verdict.y);
        from[verdict.source] += 1;
        if (verdict.by) sources.set(verdict.by, (sources.get(verdict.by) ?? 0) + 1);
      }
    }
    const top = topSource(sources);
    const name = top ? await training.sourceName(accountId, top.kind, top.id) : null;
    return { set, from, capped, top: top && name !== null ? { ...top, name } : null };
  }

  /**
   * What both sets of weights do to the last RECENT_DAYS days of scored screenings, and how
   * many of those the current weights block the proposed block too.
   */
  async function recent(
    accountId: string,
    current: Weights,
    proposed: Weights,
    thresholds: Thresholds,
  ) {
    const since = new Date(now().getTime() - RECENT_DAYS * DAY_MS);
    const tally = { current: emptyOutcome(), proposed: emptyOutcome() };
    let screenings = 0;
    let stillBlocked = 0;
    let keyset: ScreeningKeyset = null;
    for (;;) {
      const page = await training.recent(accountId, since, keyset, PAGE);
      for (const row of page.slice(0, MAX_RECENT - screenings)) {
        const now = actionOf(row, current, thresholds);
        const next = actionOf(row, proposed, thresholds);
        count(tally.current, now);
        count(tally.proposed, next);
        if (now === "block" && next === "block") stillBlocked += 1;
        screenings += 1;
      }
      const last = page.at(-1);
      if (!last || page.length < PAGE || screenings >= MAX_RECENT) {
        return {
          days: RECENT_DAYS,
          screenings,
          capped: screenings >= MAX_RECENT && !!last,
          ...tally,
          still_blocked: stillBlocked,
        };
      }
      keyset = { createdAt: last.createdAt, id: last.id };
    }
  }

  async function propose(accountId: string, by: string): Promise<ScoreModelView> {
    const started = performance.now();
    const { score } = await policy.load(accountId);
    const prior = score?.weights ?? DEFAULT_WEIGHTS;
    const thresholds = score?.thresholds ?? {};
    const { set, from, capped, top } = await labelled(accountId);
    if (set.fraud < MIN_LABELS_PER_CLASS || set.legitimate < MIN_LABELS_PER_CLASS) {
      throw new AppError(
        "BAD_REQUEST",
        `Your labels hold ${set.fraud} fraud and ${set.legitimate} legitimate screenings; a proposal needs at least ${MIN_LABELS_PER_CLASS} of each.`,
      );
    }
    const at = now();
    const fitted = {
      from: "labels",
      labels: { fraud: set.fraud, legitimate: set.legitimate },
      prior: prior.version,
      lambda: LAMBDA,
      folds: FOLDS,
      at: at.toISOString(),
    };
    const proposal = await runFit({
      packed: set.packed(),
      options: { prior, thresholds, folds: FOLDS, meta: { version: "acct-next", fitted } },
    });
    const metrics: ModelMetrics = {
      labels: { fraud: set.fraud, legitimate: set.legitimate, from, capped, top_source: top },
      compared_with: prior.version,
      thresholds,
      folds: FOLDS,
      lambda: LAMBDA,
      labelled: proposal.labelled,
      recent: await recent(accountId, prior, proposal.weights, thresholds),
      changes: weightChanges(prior, proposal.weights),
      took_ms: Math.round(performance.now() - started),
    };
    const row = await models.propose(accountId, (version) => ({
      weights: { ...proposal.weights, version: `acct-${version}` },
      metrics,
      createdBy: by,
    }));
    const view = viewOf(row);
    if (!view) throw new AppError("INTERNAL", "The stored proposal does not read back.");
    return view;
  }

  return {
    list,
    /** The labelled screenings a fit learns from, as both pages count them (label-verdicts.ts). */
    labelCounts: verdicts.counts,

    /** Fits and stores a proposal; nothing is adopted. One at a time per account. */
    async propose(accountId: string, by: string): Promise<ScoreModelView> {
      if (fitting.has(accountId)) {
        throw new AppError("CONFLICT", "A proposal is already being made for this account.");
      }
      if (fitting.size >= MAX_FITS) {
        throw new AppError("TOO_MANY_REQUESTS", "Other fits are running; try again in a minute.", {
          retryAfterSeconds: 30,
        });
      }
      fitting.add(accountId);
      try {
        return await propose(accountId, by);
      } finally {
        fitting.delete(accountId);
      }
    },

    /**
     * Puts a proposed (or retired) version in force; the one in force before is retired. A
     * version with warnings needs each confirmed (`confirm` lists their codes), or a 400.
     */
    async adopt(accountId: string, raw: AdoptModel, by: string): Promise<ScoreModels> {
      const { id, confirm = [] } = ZAdoptModel.parse(raw);
      const target = await models.find(accountId, id);
      if (!target) throw new AppError("NOT_FOUND", "No such weights version in this account.");
      if (target.status === "adopted") {
        throw new AppError("CONFLICT", `Version ${target.version} is already in force.`);
      }
      // A stored version never changes its weights or backtest: its warnings read now hold.
      const warnings = viewOf(target)?.warnings ?? [];
      const missing = warnings.filter((w) => !confirm.includes(w.code));
      if (missing.length > 0) throw unconfirmed(missing);
      const confirmed = warnings.map((w) => w.code);
      const result = await models.adopt(accountId, id, by, now(), confirmed);
      if (result.outcome === "missing") {
        throw new AppError("NOT_FOUND", "No such weights version in this account.");
      }
      if (result.outcome === "already") {
        throw new AppError("CONFLICT", `Version ${result.model.version} is already in force.`);
      }
      if (result.outcome === "raced") {
        throw raced();
      }
      onChange(accountId);
      return list(accountId);
    },

    /** Retires the version in force and puts back the one before it, or the shipped defaults. */
    async rollback(accountId: string): Promise<ScoreModels> {
      const result = await models.rollback(accountId);
      if (result.outcome === "nothing") {
        throw new AppError(
          "CONFLICT",
          "Nothing to roll back: the shipped default weights are in force.",
        );
      }
      if (result.outcome === "raced") {
        throw raced();
      }
      onChange(accountId);
      return list(accountId);
    },
  };
}

/** The 409 when another request changed the weights in force at the same moment. */
function raced(): AppError {
  return new AppError(
    "CONFLICT",
    "The weights in force were changed at the same moment by another request; reload and try again.",
  );
}

/** The 400 for an adopt that left warnings unconfirmed: each one named, under `confirm`. */
function unconfirmed(missing: readonly ModelWarning[]): AppError {
  const codes = missing.map((w) => w.code).join(", ");
  return new AppError(
    "BAD_REQUEST",
    `confirm: each warning of this version must be confirmed to adopt it; not confirmed: ${codes}`,
    {
      issues: missing.map((w) => ({
        path: "confirm",
        message: `must include ${w.code}: ${w.message}`,
      })),
    },
  );
}

export type ModelsService = ReturnType<typeof createModelsService>;
