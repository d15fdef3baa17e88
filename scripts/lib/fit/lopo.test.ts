/**
 * Leave one population out: the refit never sees the left-out population's rows, the offline
 * decision is the stricter of the rules' and the score's where the configuration scores the
 * type, and people are counted per play.
 */
import { describe, expect, it } from "vitest";
import { TEMPLATE_KEYS } from "../../../shared/schemas/templates.ts";
import type { Row } from "./collect.ts";
import {
  EVERYTHING,
  type Fit,
  type Fitter,
  judgeOffline,
  leaveOnePopulationOut,
  lopoConfigurationsOf,
  lopoTables,
  populationFiguresOf,
  scoreTypesOf,
  worse,
} from "./lopo.ts";

/** A weight worth exactly `points` points at value 1. */
const pts = (points: number) => (points * Math.LN2) / 10;

const row = (fields: Partial<Row> = {}): Row => ({
  world: "w1",
  seed: 1,
  population: "home_broadband",
  attack: false,
  payoff: true,
  actor: "a1",
  type: "signup",
  decision: "allow",
  score: 0,
  signals: {},
  ...fields,
});

// Signups start at 21; review at 50 caps each family at +29; block at 70 needs two families.
const fit: Fit = {
  model: {
    intercepts: { signup: -2 },
    weights: { hosting_network: pts(40), no_browser: pts(40) },
  },
  thresholds: { signup: { review: 50, block: 70 } },
};
const SIGNALS = {
  none: {},
  one: { hosting_network: 1 },
  two: { hosting_network: 1, no_browser: 1 },
};

describe("judgeOffline", () => {
  it.each([
    // The score's own action: none (21), review (one family, capped at 50), block (79, two).
    { rules: "allow", signals: "none", scored: true, decision: "allow" },
    { rules: "allow", signals: "one", scored: true, decision: "review" },
    { rules: "allow", signals: "two", scored: true, decision: "block" },
    { rules: "review", signals: "none", scored: true, decision: "review" },
    { rules: "review", signals: "two", scored: true, decision: "block" },
    { rules: "block", signals: "none", scored: true, decision: "block" },
    { rules: "block", signals: "one", scored: true, decision: "block" },
    // A type the configuration does not score: the rules alone, whatever the score.
    { rules: "allow", signals: "two", scored: false, decision: "allow" },
    { rules: "review", signals: "two", scored: false, decision: "review" },
    { rules: "block", signals: "none", scored: false, decision: "block" },
  ] as const)(
    "rules $rules, score on $signals family(ies), type scored: $scored → $decision",
    ({ rules, signals, scored, decision }) => {
      const r = row({ decision: rules, signals: SIGNALS[signals] });
      expect(judgeOffline([r], fit, scored ? ["signup"] : ["checkout"])).toEqual([decision]);
    },
  );
});

describe("populationFiguresOf", () => {
  it("counts people per world and seed: the same actor id in two plays is two people", () => {
    const rows = [
      row({ actor: "a1" }),
      row({ actor: "a1" }),
      row({ actor: "a1", seed: 2 }),
      row({ actor: "a1", world: "w2" }),
    ];
    expect(populationFiguresOf(rows, ["block", "block", "review", "allow"])).toEqual({
      events: 4,
      blocked: 2,
      reviewed: 1,
      people: 3,
      peopleBlocked: 1,
    });
  });
});

describe("leaveOnePopulationOut", () => {
  const training = [
    ...Array.from({ length: 5 }, () => row({ population: "home_broadband" })),
    ...Array.from({ length: 3 }, () => row({ population: "company_team" })),
    ...Array.from({ length: 4 }, () => row({ population: "trial_farm", attack: true })),
  ];
  const heldOut = [
    {
      configuration: EVERYTHING,
      rows: [
        row({ population: "company_team", actor: "c1", signals: SIGNALS.two }),
        row({ population: "company_team", actor: "c2" }),
        row({ population: "home_broadband", world: "w9", seed: 22 }),
        row({ population: "trial_farm", attack: true, signals: SIGNALS.two }),
      ],
    },
  ];

  it("never trains or chooses thresholds on the left-out population's rows", () => {
    const seen: { population: string; model: string[]; thresholds: string[] }[] = [];
    let current = "";
    const spy: Fitter = {
      model(rows) {
        seen.push({ population: current, model: rows.map((r) => r.population), thresholds: [] });
        return fit.model;
      },
      thresholds(_, rows) {
        const last = seen.at(-1);
        if (last) last.thresholds = rows.map((r) => r.population);
        return fit.thresholds;
      },
    };
    const result = leaveOnePopulationOut(
      { training, heldOut, lambda: 1, shipped: fit },
      spy,
      (_, __, population) => {
        current = population;
      },
    );
    expect(result.map((r) => r.population)).toEqual(["company_team", "home_broadband"]);
    expect(seen.map((s) => s.population)).toEqual(["company_team", "home_broadband"]);
    for (const s of seen) {
      expect(s.model).not.toContain(s.population);
      expect(s.thresholds).not.toContain(s.population);
      // Everything else stays in: the other ordinary population and the attacks.
      expect(s.model).toHaveLength(training.filter((r) => r.population !== s.population).length);
    }
    expect(result.map((r) => r.trainingEvents)).toEqual([3, 5]);
  });

  it("judges the left-out population's held-out events under the refit, beside the shipped fit", () => {
    // The refit never reviews or blocks (no thresholds); the shipped one blocks c1's signup.
    const lenient: Fitter = { model: () => fit.model, thresholds: () => ({}) };
    const [company] = leaveOnePopulationOut(
      { training, heldOut, lambda: 1, shipped: fit, populations: ["company_team"] },
      lenient,
    );
    expect(company?.plays).toEqual(["w1 seed 1"]);
    expect(company?.configurations).toEqual([
      {
        name: EVERYTHING.name,
        scoreTypes: scoreTypesOf(EVERYTHING),
        in: { events: 2, blocked: 1, reviewed: 0, people: 2, peopleBlocked: 1 },
        out: { events: 2, blocked: 0, reviewed: 0, people: 2, peopleBlocked: 0 },
      },
    ]);
    const tables = lopoTables(company ? [company] : []);
    expect(tables).toContain("| company_team | 3 | 1 | 2 | 2 | all_rules_all_templates |");
    expect(tables).toContain("1 (50.00%) → 0 (0.00%)");
  });
});

describe("configurations", () => {
  it("each: every template alone, every rule, and every rule plus every template", () => {
    expect(lopoConfigurationsOf("each").map((c) => c.name)).toEqual([
      ...TEMPLATE_KEYS,
      "all_rules",
      "all_rules_all_templates",
    ]);
    expect(lopoConfigurationsOf("rules,everything").map((c) => c.name)).toEqual([
      "all_rules",
      "all_rules_all_templates",
    ]);
  });

  it.each([
    { name: "all_rules", types: [] },
    { name: "template_refund_abuser_flag", types: ["checkout"] },
    { name: "template_one_human_one_trial", types: ["signup", "trial_start"] },
    {
      name: "all_rules_all_templates",
      types: ["checkout", "referral", "request", "signup", "trial_start"],
    },
  ])("the score acts on $name's templates' types", ({ name, types }) => {
    const config = lopoConfigurationsOf("each").find((c) => c.name === name);
    expect(config && scoreTypesOf(config)).toEqual(types);
  });
});

describe("worse", () => {
  const f = (blocked: number, peopleBlocked: number, reviewed: number) => ({
    events: 100,
    blocked,
    reviewed,
    people: 10,
    peopleBlocked,
  });
  it.each([
    { name: "more blocked", a: f(2, 1, 0), b: f(1, 1, 9), worse: true },
    { name: "as many blocked, more people blocked", a: f(2, 2, 0), b: f(2, 1, 9), worse: true },
    { name: "then more reviewed", a: f(0, 0, 3), b: f(0, 0, 2), worse: true },
    { name: "the same: not worse", a: f(1, 1, 1), b: f(1, 1, 1), worse: false },
    { name: "fewer blocked, however many reviewed", a: f(0, 0, 50), b: f(1, 1, 0), worse: false },
  ])("$name", ({ a, b, worse: expected }) => {
    expect(worse(a, b)).toBe(expected);
  });
});
