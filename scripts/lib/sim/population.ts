/** What a population is: a named, labelled source of traffic with a share of the mix. */
import type { Actor, SimEvent } from "./journey.ts";
import type { Rng } from "./rng.ts";

/**
 * A world's settings for one population (worlds.ts), e.g. a company's size or how many of its
 * people come from the office; a population reads the ones it knows and has its own defaults.
 */
export type Params = Readonly<Record<string, number>>;

/** A mix of the populations: their weights and settings (worlds.ts names some, random-worlds.ts draws others). */
export type World = {
  about: string;
  /** Population name → weight, over each population's own share (0 leaves it out). */
  shares: Readonly<Record<string, number>>;
  /** Population name → settings its groups read (a company's size, ...), over its defaults. */
  params?: Readonly<Record<string, Params>>;
};

export type Population = {
  name: string;
  attack: boolean;
  /** Default share of its side of the mix (ordinary or attack), in relative weights. */
  share: number;
  /** One line for the report: who these people are and why they are hard. */
  about: string;
  /** For an attack: the templates meant to stop it (the recall a template is judged on). */
  targetedBy?: readonly string[];
  /**
   * For an attack: the event types that are its payoff (the trial, the promo, the charge).
   * Recall is over these; its other events (page loads, the signup before a trial) still
   * count towards precision when flagged.
   */
  payoff?: readonly string[];
  /** One group of actors (a person, a family, an office, a farm run) starting at `start`. */
  group(r: Rng, n: number, start: number, span: number, params?: Params): SimEvent[];
};

/** Groups of the population, spread over the span, until they made `budget` events. */
export function generate(
  pop: Population,
  r: Rng,
  budget: number,
  span: number,
  params?: Params,
  /** Where a group starts (default: anywhere in the first 95% of the span; week.ts shapes it). */
  startOf: (r: Rng, span: number) => number = (r, span) => r.next() * span * 0.95,
  /**
   * Whether a group's `early` events (an account made a day before, at a negative time) count
   * back from the group's own start rather than from the span's: in a week an attack starting
   * on day 5 made its accounts on day 4, not before day 1.
   */
  earlyFromStart = false,
): SimEvent[] {
  const events: SimEvent[] = [];
  for (let n = 0; events.length < budget && n <= budget * 4; n++) {
    const start = startOf(r, span);
    // A group in time order; the last one is cut where the budget ends (a bot stops early).
    const group = pop
      .group(r, n, start, span, params)
      .map((event) =>
        earlyFromStart && event.early && event.at < 0 ? { ...event, at: start + event.at } : event,
      )
      .filter((event) => event.at < span);
    group.sort((a, b) => a.at - b.at);
    for (const event of group.slice(0, budget - events.length)) {
      events.push({
        ...event,
        payoff: !pop.attack || (pop.payoff?.includes(event.screen.type) ?? true),
      });
    }
  }
  return events;
}

/** An actor of `pop` with the usual defaults: a browser with warden.js, a person typing. */
export function actorOf(
  pop: Population,
  id: string,
  fields: Omit<Actor, "population" | "attack" | "id" | "typing" | "collector"> &
    Partial<Pick<Actor, "typing" | "collector">>,
): Actor {
  return {
    population: pop.name,
    attack: pop.attack,
    id: `${pop.name}:${id}`,
    typing: "human",
    collector: true,
    ...fields,
  };
}
