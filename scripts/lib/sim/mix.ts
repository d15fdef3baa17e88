/**
 * The mix and how it is built: ordinary and attack populations with their shares (their own, a
 * world's: worlds.ts, or the caller's), each given its share of `events` and the world's
 * parameters for it, all merged in simulated time order. Same seed and world, same traffic.
 */
import { ATTACKS } from "./attacks.ts";
import { HOUR, type SimEvent } from "./journey.ts";
import { generate, type Params, type Population } from "./population.ts";
import { ORDINARY } from "./populations.ts";
import { rng } from "./rng.ts";
import { DAY, returnVisits, WEEK_PARAMS, weekStart } from "./week.ts";
import { worldOf } from "./worlds.ts";

export type MixOptions = {
  seed: number;
  /** The world's shares (worlds.ts; default: each population's own share). */
  world?: string;
  events: number;
  hours: number;
  /**
   * A week rather than an hour (week.ts): the span is `days` days, honest groups start by the
   * day's and week's rhythm and attacks from `attackFromDay` on. `hours` is then days × 24.
   */
  days?: number;
  attackFromDay?: number;
  /** Fraction of events that are attacks (default 0.25). */
  attackShare?: number;
  /** Population name → weight, over the world's (0 leaves a population out). */
  shares?: Record<string, number>;
  /** Only these populations (the others' weight 0), e.g. the refund traffic alone. */
  only?: readonly string[];
};

export const POPULATIONS: readonly Population[] = [...ORDINARY, ...ATTACKS];

/** A week's settings under the world's own (a world that sets one keeps it). */
function withWeekParams(params: Readonly<Record<string, Params>>): Record<string, Params> {
  const merged: Record<string, Params> = { ...params };
  for (const [name, values] of Object.entries(WEEK_PARAMS)) {
    merged[name] = { ...values, ...params[name] };
  }
  return merged;
}

export function buildTraffic(options: MixOptions): SimEvent[] {
  const week = options.days
    ? { days: options.days, attackFromDay: options.attackFromDay }
    : undefined;
  const span = week ? week.days * DAY : options.hours * HOUR;
  const attackShare = options.attackShare ?? 0.25;
  const chosen = worldOf(options.world ?? "default");
  const world = chosen.shares as Record<string, number>;
  const params = week ? withWeekParams(chosen.params ?? {}) : (chosen.params ?? {});
  const weight = (pop: Population) =>
    options.only && !options.only.includes(pop.name)
      ? 0
      : (options.shares?.[pop.name] ?? world[pop.name] ?? pop.share);
  const unknown = [
    ...Object.keys(world),
    ...Object.keys(params),
    ...Object.keys(options.shares ?? {}),
    ...(options.only ?? []),
  ].filter((name) => !POPULATIONS.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(`unknown population(s): ${unknown.join(", ")}`);
  const root = rng(options.seed);
  const events: SimEvent[] = [];
  for (const [side, pops, fraction] of [
    ["ordinary", ORDINARY, 1 - attackShare],
    ["attack", ATTACKS, attackShare],
  ] as const) {
    const total = pops.reduce((sum, pop) => sum + weight(pop), 0);
    for (const pop of pops) {
      const budget = Math.round((options.events * fraction * weight(pop)) / (total || 1));
      if (budget > 0)
        events.push(
          ...generate(
            pop,
            root.fork(`${side}:${pop.name}`),
            budget,
            span,
            params[pop.name],
            week ? weekStart(week, pop.attack) : undefined,
            week !== undefined,
          ),
        );
    }
  }
  if (week) events.push(...returnVisits(root.fork("returns"), events, span));
  // Stable: equal times keep each population's own order.
  return events
    .map((event, i) => ({ event, i }))
    .sort((a, b) => a.event.at - b.event.at || a.i - b.i)
    .map(({ event }) => ({
      ...event,
      at: event.early ? Math.round(event.at) : Math.max(0, Math.round(event.at)),
    }));
}
