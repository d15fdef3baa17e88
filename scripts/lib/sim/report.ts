/**
 * The figures from labelled outcomes (pure): per configuration, attacks blocked / reviewed /
 * allowed (recall), ordinary events blocked / reviewed (false-positive rates), precision,
 * ordinary people blocked at least once; per population; per rule (from the reasons each
 * answer gave), with the three ordinary populations each rule hurts most.
 */

import type { Outcome } from "./driver.ts";
import type { DayFigures } from "./week.ts";

export type Tally = { events: number; blocked: number; reviewed: number; allowed: number };

export type RuleFigures = {
  rule: string;
  attackFlagged: number;
  ordinaryBlocked: number;
  ordinaryReviewed: number;
  /** Of the events this rule flagged, the share that were attacks (any of their events). */
  precision: number | null;
  /** The ordinary populations this rule flagged most, with how many of their events. */
  hurts: { population: string; events: number }[];
};

export type ConfigurationFigures = {
  name: string;
  /** Attack payoff events (the trial, the promo, the charge...): recall is over these. */
  attacks: Tally & { recall: number; blockedRate: number };
  /** Only the attacks this configuration is meant to stop (null: none simulated). */
  targeted: (Tally & { recall: number; populations: string[] }) | null;
  ordinary: Tally & {
    blockedRate: number;
    reviewedRate: number;
    people: number;
    peopleBlocked: number;
    peopleBlockedRate: number;
  };
  precision: number | null;
  /** Per population; for an attack, over its payoff events (its recall). */
  populations: (Tally & { population: string; attack: boolean })[];
  rules: RuleFigures[];
  /** A week's run (--days): the same, a row a day (week.ts). */
  days?: DayFigures[];
};

const empty = (): Tally => ({ events: 0, blocked: 0, reviewed: 0, allowed: 0 });
function add(tally: Tally, o: Outcome) {
  tally.events++;
  if (o.decision === "block") tally.blocked++;
  else if (o.decision === "review") tally.reviewed++;
  else tally.allowed++;
}
const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);

export function figuresOf(
  name: string,
  outcomes: readonly Outcome[],
  targeted: readonly string[] | null,
): ConfigurationFigures {
  const attacks = empty();
  const ordinary = empty();
  const target = empty();
  const pops = new Map<string, Tally & { population: string; attack: boolean }>();
  const people = new Set<string>();
  const blockedPeople = new Set<string>();
  const rules = new Map<
    string,
    { attack: number; blocked: number; reviewed: number; hurts: Map<string, number> }
  >();
  let flaggedAttacks = 0;
  for (const o of outcomes) {
    if (o.attack && o.decision !== "allow") flaggedAttacks++;
    if (!o.attack) add(ordinary, o);
    else if (o.payoff) add(attacks, o);
    if (o.attack && o.payoff && targeted?.includes(o.population)) add(target, o);
    const pop = pops.get(o.population) ?? {
      population: o.population,
      attack: o.attack,
      ...empty(),
    };
    pops.set(o.population, pop);
    // Per attack: its payoff events, so each row is that attack's recall.
    if (o.payoff) add(pop, o);
    if (!o.attack) {
      people.add(o.actor);
      if (o.decision === "block") blockedPeople.add(o.actor);
    }
    for (const rule of new Set(o.reasons.map((r) => r.rule))) {
      const fig = rules.get(rule) ?? {
        attack: 0,
        blocked: 0,
        reviewed: 0,
        hurts: new Map<string, number>(),
      };
      rules.set(rule, fig);
      const blocked = o.reasons.some((r) => r.rule === rule && r.action === "block");
      if (o.attack) fig.attack++;
      else {
        if (blocked) fig.blocked++;
        else fig.reviewed++;
        fig.hurts.set(o.population, (fig.hurts.get(o.population) ?? 0) + 1);
      }
    }
  }
  const flagged = flaggedAttacks + ordinary.blocked + ordinary.reviewed;
  return {
    name,
    attacks: {
      ...attacks,
      recall: ratio(attacks.blocked + attacks.reviewed, attacks.events),
      blockedRate: ratio(attacks.blocked, attacks.events),
    },
    targeted:
      targeted && target.events > 0
        ? {
            ...target,
            recall: ratio(target.blocked + target.reviewed, target.events),
            populations: [...targeted],
          }
        : null,
    ordinary: {
      ...ordinary,
      blockedRate: ratio(ordinary.blocked, ordinary.events),
      reviewedRate: ratio(ordinary.reviewed, ordinary.events),
      people: people.size,
      peopleBlocked: blockedPeople.size,
      peopleBlockedRate: ratio(blockedPeople.size, people.size),
    },
    precision: flagged === 0 ? null : flaggedAttacks / flagged,
    populations: [...pops.values()].sort(
      (a, b) => Number(b.attack) - Number(a.attack) || a.population.localeCompare(b.population),
    ),
    rules: [...rules.entries()]
      .map(([rule, f]) => ({
        rule,
        attackFlagged: f.attack,
        ordinaryBlocked: f.blocked,
        ordinaryReviewed: f.reviewed,
        precision: ratio(f.attack, f.attack + f.blocked + f.reviewed),
        hurts: [...f.hurts.entries()]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, 3)
          .map(([population, events]) => ({ population, events })),
      }))
      .sort((a, b) => a.rule.localeCompare(b.rule)),
  };
}

export const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

/** The summary table, one row per configuration (Markdown). */
export function summaryTable(figures: readonly ConfigurationFigures[]): string {
  const rows = figures.map(
    (f) =>
      `| ${f.name} | ${f.attacks.events} | ${pct(f.attacks.blockedRate)} | ${pct(f.attacks.recall)} | ${f.targeted ? pct(f.targeted.recall) : "–"} | ${f.ordinary.events} | ${pct(f.ordinary.blockedRate)} | ${pct(f.ordinary.reviewedRate)} | ${pct(f.precision)} | ${f.ordinary.peopleBlocked}/${f.ordinary.people} (${pct(f.ordinary.peopleBlockedRate)}) |`,
  );
  return [
    "| configuration | attack payoff events | attacks blocked | attacks blocked or reviewed | targeted attacks blocked or reviewed | ordinary events | ordinary blocked | ordinary reviewed | precision | ordinary people blocked ≥ once |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

/** Per rule within one configuration (Markdown). */
export function ruleTable(f: ConfigurationFigures): string {
  return [
    "| rule | attack events flagged (any) | ordinary blocked | ordinary reviewed | precision | ordinary populations it hurts most |",
    "|---|---:|---:|---:|---:|---|",
    ...f.rules.map(
      (r) =>
        `| ${r.rule} | ${r.attackFlagged} | ${r.ordinaryBlocked} | ${r.ordinaryReviewed} | ${pct(r.precision)} | ${r.hurts.map((h) => `${h.population} (${h.events})`).join(", ") || "–"} |`,
    ),
  ].join("\n");
}

/** Per population within one configuration (Markdown). */
export function populationTable(f: ConfigurationFigures): string {
  return [
    "| population | kind | events (attacks: payoff events) | blocked | reviewed | allowed |",
    "|---|---|---:|---:|---:|---:|",
    ...f.populations.map(
      (p) =>
        `| ${p.population} | ${p.attack ? "attack" : "ordinary"} | ${p.events} | ${pct(ratio(p.blocked, p.events))} | ${pct(ratio(p.reviewed, p.events))} | ${pct(ratio(p.allowed, p.events))} |`,
    ),
  ].join("\n");
}
