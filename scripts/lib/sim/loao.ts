/**
 * Leave one attack out (pure): settings tuned on the simulated attacks catch those attacks; the
 * question is how they do on an attack they were not tuned on. For each attack A, the candidate
 * with the best mean recall over the other attacks (within the false-positive ceilings) is
 * picked, and A's recall under it (held out) is set beside A's recall under the defaults and
 * under the candidate picked with A in. A held-out recall far under the tuned one means the
 * grid fits the attacks it sees.
 */
import type { ConfigurationFigures } from "./report.ts";
import { pct } from "./report.ts";

/** The most a pick may cost ordinary people (shares of ordinary events, and of people). */
export type Ceilings = { blocked: number; reviewed: number; peopleBlocked: number };

export const CEILINGS: Ceilings = { blocked: 0.005, reviewed: 0.02, peopleBlocked: 0.01 };

/** One candidate played once, reduced to what the selection reads. */
export type CandidateRun = {
  name: string;
  settings: Record<string, unknown>;
  /** Per attack: its payoff events blocked or reviewed, over its payoff events. */
  recall: Record<string, number>;
  ordinary: { blocked: number; reviewed: number; peopleBlocked: number };
};

/** A candidate's figures, its recall per attack among `attacks`. */
export function candidateRunOf(
  settings: Record<string, unknown>,
  f: ConfigurationFigures,
  attacks: readonly string[],
): CandidateRun {
  const recall: Record<string, number> = {};
  for (const attack of attacks) {
    const p = f.populations.find((row) => row.population === attack && row.attack);
    recall[attack] = p && p.events > 0 ? (p.blocked + p.reviewed) / p.events : 0;
  }
  return {
    name: f.name,
    settings,
    recall,
    ordinary: {
      blocked: f.ordinary.blockedRate,
      reviewed: f.ordinary.reviewedRate,
      peopleBlocked: f.ordinary.peopleBlockedRate,
    },
  };
}

/** The ceilings `run` goes over, by name (empty: within all of them). */
export function overCeilings(run: CandidateRun, ceilings: Ceilings): string[] {
  return (["blocked", "reviewed", "peopleBlocked"] as const).filter(
    (key) => run.ordinary[key] > ceilings[key],
  );
}

export const meanRecall = (run: CandidateRun, attacks: readonly string[]) =>
  attacks.length === 0
    ? 0
    : attacks.reduce((sum, attack) => sum + (run.recall[attack] ?? 0), 0) / attacks.length;

/**
 * The run with the best mean recall over `attacks` among those within the ceilings (null:
 * none is). Ties go to fewer ordinary events blocked, then reviewed, then fewer people blocked,
 * then the earlier run (the defaults come first).
 */
export function pick(
  runs: readonly CandidateRun[],
  attacks: readonly string[],
  ceilings: Ceilings,
): CandidateRun | null {
  let best: CandidateRun | null = null;
  for (const run of runs) {
    if (overCeilings(run, ceilings).length > 0) continue;
    if (best === null || better(run, best, attacks)) best = run;
  }
  return best;
}

// Recall is compared to a millionth: the same catches by two candidates are a tie, not noise.
const round = (x: number) => Math.round(x * 1e6);

function better(a: CandidateRun, b: CandidateRun, attacks: readonly string[]): boolean {
  const keys = (r: CandidateRun) => [
    -round(meanRecall(r, attacks)),
    round(r.ordinary.blocked),
    round(r.ordinary.reviewed),
    round(r.ordinary.peopleBlocked),
  ];
  const [ka, kb] = [keys(a), keys(b)];
  for (let i = 0; i < ka.length; i++) {
    if ((ka[i] as number) !== (kb[i] as number)) return (ka[i] as number) < (kb[i] as number);
  }
  return false;
}

export type LoaoRow = {
  attack: string;
  /** The pick tuned without this attack (null: no candidate within the ceilings). */
  pickedWithout: string | null;
  heldOut: number | null;
  defaults: number;
  /** The pick tuned on every attack, this one included. */
  pickedWith: string | null;
  tunedWith: number | null;
};

/** For each attack, held out in turn: the pick without it and its recall there, beside the defaults and the pick with it. */
export function leaveOneAttackOut(
  runs: readonly CandidateRun[],
  defaults: CandidateRun,
  attacks: readonly string[],
  ceilings: Ceilings = CEILINGS,
): LoaoRow[] {
  const withAll = pick(runs, attacks, ceilings);
  return attacks.map((attack) => {
    const without = pick(
      runs,
      attacks.filter((a) => a !== attack),
      ceilings,
    );
    return {
      attack,
      pickedWithout: without?.name ?? null,
      heldOut: without ? (without.recall[attack] ?? 0) : null,
      defaults: defaults.recall[attack] ?? 0,
      pickedWith: withAll?.name ?? null,
      tunedWith: withAll ? (withAll.recall[attack] ?? 0) : null,
    };
  });
}

const mean = (xs: readonly (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
};

/** The leave-one-attack-out table (Markdown), with the means over attacks last. */
export function loaoTable(rows: readonly LoaoRow[]): string {
  const none = "none within the ceilings";
  return [
    "| attack | candidate picked without it | held-out recall | recall with defaults | recall when tuned with it |",
    "|---|---|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.attack} | ${r.pickedWithout ?? none} | ${pct(r.heldOut)} | ${pct(r.defaults)} | ${pct(r.tunedWith)} (${r.pickedWith ?? none}) |`,
    ),
    `| mean over attacks | | ${pct(mean(rows.map((r) => r.heldOut)))} | ${pct(mean(rows.map((r) => r.defaults)))} | ${pct(mean(rows.map((r) => r.tunedWith)))} |`,
  ].join("\n");
}

/** Every candidate's run (Markdown): mean recall, what it cost ordinary people, the ceilings it breaks. */
export function candidateTable(
  runs: readonly CandidateRun[],
  attacks: readonly string[],
  ceilings: Ceilings = CEILINGS,
): string {
  return [
    "| candidate | mean recall over attacks | ordinary blocked | ordinary reviewed | ordinary people blocked ≥ once | within the ceilings |",
    "|---|---:|---:|---:|---:|---|",
    ...runs.map((r) => {
      const over = overCeilings(r, ceilings);
      return `| ${r.name} | ${pct(meanRecall(r, attacks))} | ${pct(r.ordinary.blocked)} | ${pct(r.ordinary.reviewed)} | ${pct(r.ordinary.peopleBlocked)} | ${over.length === 0 ? "yes" : `no: ${over.join(", ")}`} |`;
    }),
  ].join("\n");
}
