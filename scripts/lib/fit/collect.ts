/**
 * The fit's data: one seed of the simulator's traffic played against a fresh Warden (embedded
 * database, simulated clock) with every rule on and no template, so the score is computed but
 * no threshold acts. What is collected (each event's signals and the rules' decision) then does
 * not depend on the weights file, which keeps `npm run fit -- --check` from checking itself.
 */
import { drive } from "../sim/driver.ts";
import { buildTraffic } from "../sim/mix.ts";
import { configurationsOf, leadOf } from "../sim/run.ts";
import { setUpMerchant, startWarden } from "../sim/warden.ts";

/** Which traffic: a world of the simulator and a seed, `events` over `hours`. */
export type Play = { world: string; seed: number; events: number; hours: number };

/** One screened event, as the fit and the report read it. */
export type Row = {
  seed: number;
  population: string;
  /** Any event of an attack population (the fit's label). */
  attack: boolean;
  /** An attack's payoff event (recall is over these); ordinary events: true. */
  payoff: boolean;
  actor: string;
  type: string;
  /** The rules' decision (no threshold acts in this configuration). */
  decision: "allow" | "review" | "block";
  /** The score Warden computed with the weights it had then (not read by the fit). */
  score: number;
  /** Signal key → value, for the signals that had something to say. */
  signals: Record<string, number>;
};

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
    const [config] = configurationsOf("rules");
    if (!config) throw new Error("no `rules` configuration");
    const merchant = await setUpMerchant(warden, config, `fit-${play.world}-${play.seed}`);
    const start = warden.clock.now() + leadOf(traffic) + 60_000;
    const outcomes = await drive(warden, merchant, traffic, start, (done) =>
      progress(done, traffic.length),
    );
    return outcomes.map((o) => ({
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
