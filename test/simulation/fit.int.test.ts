/**
 * The shipped default weights are what `npm run fit` makes: the training plays (one seed on
 * each of several randomized worlds) played again (each in its own process with its own Warden
 * on the embedded database, every rule on, no threshold acting), the fit redone, and the result compared with
 * server/engine/default-weights.json as the server reads it (weights and intercepts at the 3
 * decimals the file holds, thresholds and the fit's description exactly). The same check as
 * `npm run fit -- --check`. After a change to the signals, the rules or the simulator that
 * moves them: npm run fit, and commit the file.
 */
import { describe, expect, it } from "vitest";
import { fitDefault, playTraining, TRAINING } from "../../scripts/lib/fit/default-fit.ts";
import { differences } from "../../scripts/lib/fit/weights-file.ts";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";

describe("default risk-score weights", () => {
  it(`equal a refit on the training worlds (${TRAINING.worlds.map((w, i) => `${w} seed ${TRAINING.seeds[i]}`).join(", ")})`, async () => {
    const fit = fitDefault(await playTraining());
    const fresh = { version: DEFAULT_WEIGHTS.version, ...fit.file };
    expect(differences(DEFAULT_WEIGHTS, fresh)).toEqual([]);
  }, 900_000);
});
