/**
 * The shipped default weights are what `npm run fit` makes, checked in two parts that together
 * take a minute instead of replaying all 20,000 training events:
 *
 * - a refit of the rows `npm run fit` recorded (scripts/lib/fit/training-rows.json.gz) equals
 *   server/engine/default-weights.json as the server reads it (weights and intercepts at the 3
 *   decimals the file holds, thresholds and the fit's description exactly);
 * - the recording is what today's code plays: the first events of every training play, played
 *   again (one after another in this worker, already holding the server's code, each on its own
 *   Warden and embedded database, every rule on, no threshold acting), equal the recording's
 *   first rows. A change to the signals, the rules or the simulator moves them.
 *
 * `npm run fit -- --check` replays every event. After a change that moves either: npm run fit,
 * and commit the weights and the recording.
 */
import { describe, expect, it } from "vitest";
import { collect } from "../../scripts/lib/fit/collect.ts";
import { fitDefault, TRAINING, trainingPlays } from "../../scripts/lib/fit/default-fit.ts";
import { labelledOf, readRecordedRows } from "../../scripts/lib/fit/recorded-rows.ts";
import { differences } from "../../scripts/lib/fit/weights-file.ts";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";

/** How many of each play's events are played again: 12% of them, every world and seed. */
const REPLAYED = 300;

describe("default risk-score weights", () => {
  it(`equal a refit of the recorded training rows (${TRAINING.worlds.map((w, i) => `${w} seed ${TRAINING.seeds[i]}`).join(", ")})`, async () => {
    const plays = await readRecordedRows();
    expect(plays.map((rows) => `${rows[0]?.world} seed ${rows[0]?.seed}`)).toEqual(
      TRAINING.worlds.map((w, i) => `${w} seed ${TRAINING.seeds[i]}`),
    );
    const fit = fitDefault(plays.flat());
    const fresh = { version: DEFAULT_WEIGHTS.version, ...fit.file };
    expect(differences(DEFAULT_WEIGHTS, fresh)).toEqual([]);
  }, 120_000);

  it(`were fitted on what the training plays play today (their first ${REPLAYED} events each)`, async () => {
    const recorded = await readRecordedRows();
    for (const [i, play] of trainingPlays().entries()) {
      const rows = await collect({ ...play, limit: REPLAYED });
      const which = `${play.world} seed ${play.seed}`;
      expect(rows.length, which).toBe(REPLAYED);
      expect(rows.map(labelledOf), `${which}: run npm run fit and commit the recording`).toEqual(
        recorded[i]?.slice(0, REPLAYED),
      );
    }
  }, 600_000);
});
