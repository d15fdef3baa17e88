/**
 * The weights judged offline on collected events (pure): each event's score recomputed from its
 * signals (scoreOf, the family caps reading the thresholds), the weights' thresholds applied (a
 * block needing evidence from two families: scoreAction), and three decisions set side by side: the
 * score alone, the rules alone (what Warden answered with every rule on and no threshold), and
 * both (the stricter of the two, as Warden decides with a template on). Then recall over attack
 * payoff events and the share of ordinary events blocked and reviewed, overall and per population.
 */
import { scoreAction } from "../../../server/engine/score.ts";
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import type { Row } from "./collect.ts";
import { type Model, scoreWith } from "./train.ts";

export type Decision = Row["decision"];
export const VIEWS = ["score", "rules", "both"] as const;
export type View = (typeof VIEWS)[number];

const RANK: Record<Decision, number> = { allow: 0, review: 1, block: 2 };

/** The stricter of two decisions. */
export const stricter = (a: Decision, b: Decision): Decision => (RANK[a] >= RANK[b] ? a : b);

export type Judged = Pick<Row, "population" | "attack" | "payoff" | "type"> & {
  /** The person: world, seed and the simulator's actor (whose ids repeat from seed to seed). */
  actor: string;
  score: number;
  decision: Record<View, Decision>;
};

export function judge(rows: readonly Row[], model: Model, thresholds: Thresholds): Judged[] {
  return rows.map((row) => {
    const { score, families } = scoreWith({ ...model, thresholds }, row);
    const threshold = thresholds[row.type as ScreenType];
    const byScore = scoreAction(score, threshold, families) ?? "allow";
    return {
      population: row.population,
      attack: row.attack,
      payoff: row.payoff,
      actor: `${row.world}/${row.seed}/${row.actor}`,
      type: row.type,
      score,
      decision: { score: byScore, rules: row.decision, both: stricter(byScore, row.decision) },
    };
  });
}

/** Events of one population (attacks: payoff events), how many were blocked and reviewed. */
export type Tally = { population: string; events: number; blocked: number; reviewed: number };

export type Figures = {
  /** Attack payoff events and those blocked or reviewed. */
  payoff: number;
  caught: number;
  recall: number;
  ordinary: {
    events: number;
    blocked: number;
    reviewed: number;
    blockedRate: number;
    reviewedRate: number;
    people: number;
    peopleBlocked: number;
  };
  attacks: Tally[];
  /** Ordinary populations, those with the most events blocked or reviewed first. */
  ordinaryPopulations: Tally[];
};

const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);

export function figuresOf(judged: readonly Judged[], view: View): Figures {
  const tallies = new Map<string, Tally & { attack: boolean }>();
  const people = new Set<string>();
  const blockedPeople = new Set<string>();
  for (const e of judged) {
    if (e.attack && !e.payoff) continue;
    const d = e.decision[view];
    const t = tallies.get(e.population) ?? {
      population: e.population,
      attack: e.attack,
      events: 0,
      blocked: 0,
      reviewed: 0,
    };
    tallies.set(e.population, t);
    t.events += 1;
    if (d === "block") t.blocked += 1;
    if (d === "review") t.reviewed += 1;
    if (!e.attack) {
      people.add(e.actor);
      if (d === "block") blockedPeople.add(e.actor);
    }
  }
  const all = [...tallies.values()].sort((a, b) => a.population.localeCompare(b.population));
  const strip = ({ attack: _, ...t }: Tally & { attack: boolean }): Tally => t;
  const attacks = all.filter((t) => t.attack).map(strip);
  const ordinary = all.filter((t) => !t.attack).map(strip);
  const sum = (list: Tally[], key: "events" | "blocked" | "reviewed") =>
    list.reduce((total, t) => total + t[key], 0);
  const payoff = sum(attacks, "events");
  const caught = sum(attacks, "blocked") + sum(attacks, "reviewed");
  const events = sum(ordinary, "events");
  return {
    payoff,
    caught,
    recall: ratio(caught, payoff),
    ordinary: {
      events,
      blocked: sum(ordinary, "blocked"),
      reviewed: sum(ordinary, "reviewed"),
      blockedRate: ratio(sum(ordinary, "blocked"), events),
      reviewedRate: ratio(sum(ordinary, "reviewed"), events),
      people: people.size,
      peopleBlocked: blockedPeople.size,
    },
    attacks,
    ordinaryPopulations: ordinary
      .filter((t) => t.blocked + t.reviewed > 0)
      .sort((a, b) => b.blocked + b.reviewed - (a.blocked + a.reviewed)),
  };
}
