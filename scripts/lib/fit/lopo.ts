/**
 * Leave one population out, for the weights (pure): weights fitted on every honest population
 * learn what those people look like; the question is what they do to honest people they never
 * saw (issue 42: a company's team on its new domain, a VPN provider's crowd). For each ordinary
 * population P, the weights are refitted on the training rows without P's (same lambda) and the
 * thresholds chosen again for the worst training world, then P's events on held-out plays are
 * judged offline in each configuration under them ("left out"), beside the shipped weights and
 * thresholds ("in").
 *
 * Judging offline: each held-out play was collected once per configuration with the score not
 * acting, so a row carries the rules' own decision in that configuration and the signals; the
 * decision is the stricter of the rules' and the score's action, the score acting only on the
 * event types the configuration's templates score (shared/catalog/templates.ts scoreTypes).
 */
import { TEMPLATE_CATALOG } from "../../../shared/catalog/templates.ts";
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import { TEMPLATE_KEYS } from "../../../shared/schemas/templates.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import { configurationsOf } from "../sim/run.ts";
import type { Configuration } from "../sim/warden.ts";
import type { Row } from "./collect.ts";
import { type Decision, judge } from "./evaluate.ts";
import { fitModel, type Model, thresholdsOf } from "./train.ts";

/** Every rule on and every template: the strictest configuration a merchant can choose. */
export const EVERYTHING: Configuration = {
  name: "all_rules_all_templates",
  templates: [...TEMPLATE_KEYS],
  allRules: true,
};

/**
 * --configurations: `each` (every template alone, every rule, every rule plus every template),
 * `everything` (every rule plus every template), or what run.ts configurationsOf takes (a
 * template key, `all`, `rules`), several separated by commas.
 */
export function lopoConfigurationsOf(spec: string): Configuration[] {
  return spec.split(",").flatMap((name) => {
    if (name === "each") return [...configurationsOf("each"), EVERYTHING];
    if (name === "everything") return [EVERYTHING];
    return configurationsOf(name);
  });
}

/** The event types whose score acts in a configuration: its templates' scoreTypes. */
export function scoreTypesOf(config: Configuration): ScreenType[] {
  const types = new Set(
    TEMPLATE_CATALOG.filter((t) => config.templates.includes(t.key)).flatMap((t) => t.scoreTypes),
  );
  return [...types].sort();
}

/** The weights and thresholds one judging uses. */
export type Fit = { model: Model; thresholds: Thresholds };

/**
 * The decision for each row: the rules' own where the configuration does not score the type,
 * else the stricter of the rules' and the score's action under `fit` (a block needing two
 * families, as Warden decides).
 */
export function judgeOffline(
  rows: readonly Row[],
  fit: Fit,
  scoreTypes: readonly string[],
): Decision[] {
  const scored = new Set(scoreTypes);
  return judge(rows, fit.model, fit.thresholds).map((j) =>
    scored.has(j.type) ? j.decision.both : j.decision.rules,
  );
}

/** One population's events in one configuration and what was done to them. */
export type PopulationFigures = {
  events: number;
  blocked: number;
  reviewed: number;
  /** Distinct people (a world, a seed and the simulator's actor) and those blocked ≥ once. */
  people: number;
  peopleBlocked: number;
};

export function populationFiguresOf(
  rows: readonly Row[],
  decisions: readonly Decision[],
): PopulationFigures {
  const people = new Set<string>();
  const blockedPeople = new Set<string>();
  let blocked = 0;
  let reviewed = 0;
  rows.forEach((row, i) => {
    const person = `${row.world}/${row.seed}/${row.actor}`;
    people.add(person);
    if (decisions[i] === "block") {
      blocked += 1;
      blockedPeople.add(person);
    } else if (decisions[i] === "review") reviewed += 1;
  });
  return {
    events: rows.length,
    blocked,
    reviewed,
    people: people.size,
    peopleBlocked: blockedPeople.size,
  };
}

/** The held-out rows of one configuration: every held-out play collected in it. */
export type HeldOutConfiguration = { configuration: Configuration; rows: readonly Row[] };

export type LopoRow = {
  population: string;
  /** P's training events, left out of the refit. */
  trainingEvents: number;
  /** Held-out plays (world, seed) P is present in. */
  plays: string[];
  /** The thresholds chosen without P (the weights are in the JSON only through these). */
  thresholds: Thresholds;
  configurations: {
    name: string;
    scoreTypes: ScreenType[];
    in: PopulationFigures;
    out: PopulationFigures;
  }[];
};

/** How a left-out fit is made: the weights, then the thresholds (train.ts; a test spies on it). */
export type Fitter = {
  model(rows: readonly Row[], lambda: number): Model;
  thresholds(model: Model, rows: readonly Row[]): Thresholds;
};

export const FITTER: Fitter = {
  model: fitModel,
  thresholds: (model, rows) => thresholdsOf(model, rows).thresholds,
};

/** Ordinary populations present in the held-out rows, by name. */
export function ordinaryPopulationsOf(heldOut: readonly HeldOutConfiguration[]): string[] {
  const names = new Set<string>();
  for (const h of heldOut) for (const r of h.rows) if (!r.attack) names.add(r.population);
  return [...names].sort();
}

export function leaveOnePopulationOut(
  input: {
    training: readonly Row[];
    heldOut: readonly HeldOutConfiguration[];
    lambda: number;
    shipped: Fit;
    /** Default: every ordinary population present in the held-out rows. */
    populations?: readonly string[];
  },
  fitter: Fitter = FITTER,
  progress: (done: number, total: number, population: string) => void = () => {},
): LopoRow[] {
  const populations = input.populations ?? ordinaryPopulationsOf(input.heldOut);
  return populations.map((population, i) => {
    progress(i, populations.length, population);
    const rest = input.training.filter((r) => r.population !== population);
    const model = fitter.model(rest, input.lambda);
    const out: Fit = { model, thresholds: fitter.thresholds(model, rest) };
    const plays = new Set<string>();
    const configurations = input.heldOut.map(({ configuration, rows }) => {
      const own = rows.filter((r) => r.population === population);
      for (const r of own) plays.add(`${r.world} seed ${r.seed}`);
      const scoreTypes = scoreTypesOf(configuration);
      return {
        name: configuration.name,
        scoreTypes,
        in: populationFiguresOf(own, judgeOffline(own, input.shipped, scoreTypes)),
        out: populationFiguresOf(own, judgeOffline(own, out, scoreTypes)),
      };
    });
    return {
      population,
      trainingEvents: input.training.length - rest.length,
      plays: [...plays].sort(),
      thresholds: out.thresholds,
      configurations,
    };
  });
}

/** A share to two decimals (the ceilings are 0.5% and 1%). */
export const share = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(2)}%`);

const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");

/** How badly a configuration treats a population: blocked, then people blocked, then reviewed. */
const harm = (f: PopulationFigures) =>
  f.events === 0
    ? [0, 0, 0]
    : [
        f.blocked / f.events,
        f.people === 0 ? 0 : f.peopleBlocked / f.people,
        f.reviewed / f.events,
      ];

/** Whether `a` treats the population worse than `b` (the first measure that differs decides). */
export function worse(a: PopulationFigures, b: PopulationFigures): boolean {
  const [x, y] = [harm(a), harm(b)];
  for (let i = 0; i < x.length; i++)
    if ((x[i] as number) !== (y[i] as number)) return (x[i] as number) > (y[i] as number);
  return false;
}

/** "in → left out" for one measure, the left-out figure in bold past `ceiling`. */
function change(
  a: PopulationFigures,
  b: PopulationFigures,
  pick: "blocked" | "reviewed" | "people",
  ceiling: number,
) {
  const of = (f: PopulationFigures) =>
    pick === "people" ? [f.peopleBlocked, f.people] : [f[pick], f.events];
  const [an, ad] = of(a) as [number, number];
  const [bn, bd] = of(b) as [number, number];
  const right = `${bn} (${share(bn, bd)})`;
  return `${an} (${share(an, ad)}) → ${bd > 0 && bn / bd > ceiling ? `**${right}**` : right}`;
}

/** Goals of issue 42 for a population left out: blocked ≤ 0.5%; people blocked ≤ 1%, reviewed ≤ 2%. */
export const LOPO_CEILINGS = { blocked: 0.005, reviewed: 0.02, peopleBlocked: 0.01 };

/**
 * The summary (each population in its worst configuration: where, left out, the most of its
 * events are blocked, then of its people, then of its events reviewed) and one table per configuration; "in" is the shipped fit, "left out" the
 * refit without the population.
 */
export function lopoTables(rows: readonly LopoRow[]): string {
  const c = LOPO_CEILINGS;
  const summary = table(
    [
      "ordinary population",
      "training events left out",
      "held-out plays",
      "events",
      "people",
      "worst configuration (left out)",
      "blocked: in → left out",
      "reviewed: in → left out",
      "people blocked ≥ once: in → left out",
    ],
    rows.map((r) => {
      const worst = r.configurations.reduce<LopoRow["configurations"][number] | null>(
        (w, x) => (w === null || worse(x.out, w.out) ? x : w),
        null,
      );
      if (!worst)
        return [r.population, String(r.trainingEvents), "0", "0", "0", "–", "–", "–", "–"];
      return [
        r.population,
        String(r.trainingEvents),
        String(r.plays.length),
        String(worst.out.events),
        String(worst.out.people),
        worst.name,
        change(worst.in, worst.out, "blocked", c.blocked),
        change(worst.in, worst.out, "reviewed", c.reviewed),
        change(worst.in, worst.out, "people", c.peopleBlocked),
      ];
    }),
  );
  const names = rows[0]?.configurations ?? [];
  const perConfiguration = names.map((config, k) => {
    const t = table(
      [
        "ordinary population",
        "events",
        "people",
        "blocked: in → left out",
        "reviewed: in → left out",
        "people blocked ≥ once: in → left out",
      ],
      rows.map((r) => {
        const x = r.configurations[k] as LopoRow["configurations"][number];
        return [
          r.population,
          String(x.out.events),
          String(x.out.people),
          change(x.in, x.out, "blocked", c.blocked),
          change(x.in, x.out, "reviewed", c.reviewed),
          change(x.in, x.out, "people", c.peopleBlocked),
        ];
      }),
    );
    const acts =
      config.scoreTypes.length > 0
        ? config.scoreTypes.join(", ")
        : "no type (the rules alone decide)";
    return `### ${config.name} (the score acts on: ${acts})\n\n${t}`;
  });
  return [`### Each population in its worst configuration\n\n${summary}`, ...perConfiguration].join(
    "\n\n",
  );
}
