/**
 * The fit's data: one seed of one world of the simulator's traffic played against a fresh
 * Warden (embedded database, simulated clock) with every rule on and no template, so the score
 * is computed but no threshold acts. What is collected (each event's signals and the rules'
 * decision) then does not depend on the weights file, which keeps `npm run fit -- --check` from
 * checking itself. Leave-one-population-out (lopo.ts) plays other configurations (templates on)
 * the same way: the merchant's own thresholds set to none, so the score acts on no type and the
 * rows carry the rules' own decision in that configuration.
 */
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import { drive } from "../sim/driver.ts";
import { buildTraffic } from "../sim/mix.ts";
import { configurationsOf, leadOf } from "../sim/run.ts";
import { type Api, type Configuration, setUpMerchant, startWarden } from "../sim/warden.ts";

/**
 * Which traffic: a world of the simulator and a seed, `events` over `hours`; in which
 * configuration (default: every rule on, no template).
 */
export type Play = {
  world: string;
  seed: number;
  events: number;
  hours: number;
  configuration?: Configuration;
  /**
   * Play only the first `limit` events of that traffic (the same traffic, started at the same
   * time): the first `limit` rows of the whole play, sooner (CI's check of the recorded rows).
   */
  limit?: number;
};

/** One screened event, as the fit and the report read it. */
export type Row = {
  world: string;
  seed: number;
  population: string;
  /** Any event of an attack population (the fit's label). */
  attack: boolean;
  /** An attack's payoff event (recall is over these); ordinary events: true. */
  payoff: boolean;
  actor: string;
  type: string;
  /** The rules' decision (no threshold acts in these configurations). */
  decision: "allow" | "review" | "block";
  /** The score Warden computed with the weights it had then (not read by the fit). */
  score: number;
  /** Signal key → value, for the signals that had something to say. */
  signals: Record<string, number>;
};

/** The merchant's own thresholds set to none for every type: no template's score acts. */
async function scoreNeverActs(api: Api): Promise<void> {
  const none = Object.fromEntries(SCREEN_TYPES.map((t) => [t, { review: null, block: null }]));
  const view = await api<{ types: { type: string; in_force: unknown }[] }>(
    "/api/scoring/thresholds",
    { method: "PUT", body: { thresholds: none } },
  );
  const acting = view.types.filter((t) => t.in_force !== null).map((t) => t.type);
  if (acting.length > 0)
    throw new Error(`the score still acts on ${acting.join(", ")} with no own thresholds`);
}

/** Plays one seed on its own Warden and returns every screened event, in traffic order. */
export async function collect(
  play: Play,
  progress: (done: number, total: number) => void = () => {},
): Promise<Row[]> {
  const traffic = buildTraffic({
    world: play.world,
    seed: play.seed,
    events: play.events,
    hours: play.hours,
  });
  const warden = await startWarden("embedded");
  try {
    const config = play.configuration ?? configurationsOf("rules")[0];
    if (!config) throw new Error("no `rules` configuration");
    const label = (
      play.configuration
        ? `lopo-${play.world}-${play.seed}-${config.name}`
        : `fit-${play.world}-${play.seed}`
    ).replace(/[^A-Za-z0-9_-]/g, "_");
    const merchant = await setUpMerchant(warden, config, label);
    if (config.templates.length > 0) await scoreNeverActs(merchant.api);
    const start = warden.clock.now() + leadOf(traffic) + 60_000;
    const played = play.limit === undefined ? traffic : traffic.slice(0, play.limit);
    const outcomes = await drive(warden, merchant, played, start, (done) =>
      progress(done, played.length),
    );
    return outcomes.map((o) => ({
      world: play.world,
      seed: play.seed,
      population: o.population,
      attack: o.attack,
      payoff: o.payoff,
      actor: o.actor,
      type: o.type,
      decision: o.decision,
      score: o.score,
      signals: o.signals,
    }));
  } finally {
    await warden.close();
  }
}
