/**
 * `npm run lopo`: leave each honest population out of the fit in turn (issue 42). For each
 * ordinary population P: the weights refitted on the training plays without P's events (the
 * shipped file's lambda), the thresholds chosen again for the worst training world, then P's
 * events on held-out plays (worlds and seeds the fit never saw, where P is present) judged
 * under them, beside the shipped weights: events blocked, reviewed, and people blocked at least
 * once, in every configuration (scripts/lib/fit/lopo.ts). Prints Markdown tables and writes
 * JSON to bench/results/lopo-<worlds>-<seeds>.json.
 *
 *   --worlds random-9,random-10,random-11,random-12   held-out worlds (none a training play)
 *   --seeds 22           held-out seeds, each played on every held-out world
 *   --events 2500        per held-out play, over --hours 1
 *   --configurations each   each: every template alone, every rule, every rule plus every
 *                        template; or template keys, all, rules, everything (comma-separated)
 *   --jobs 2             plays at once, each in its own process with its own Warden
 *   --out <path>         the JSON (default bench/results/lopo-<worlds>-<seeds>.json)
 *
 * The training plays are the fit's own (scripts/lib/fit/default-fit.ts TRAINING, every rule
 * on), played again here. Each held-out play is collected once per configuration with the
 * score not acting (the merchant's own thresholds set to none), so its rows carry the rules'
 * own decision in that configuration and the signals; the decision is then made offline: the
 * stricter of the rules' and the score's action, on the types the configuration's templates
 * score. This offline judging ignores the feedback of the score's blocks on later counts: in
 * Warden an event the score blocked marks its account as blocked for the accounts linked to it
 * (server/engine/links.ts, the `linked_bad` signal and the rules that read it), so later events
 * of linked people would carry more against them than these rows do; each event is judged as if
 * no earlier event had been blocked by the score. The rules' own blocks did happen in the play,
 * so their feedback is in the rows.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ZWeights } from "../shared/score/weights.ts";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import type { Play } from "./lib/fit/collect.ts";
import { LAMBDAS, TRAINING, trainingPlays } from "./lib/fit/default-fit.ts";
import {
  type HeldOutConfiguration,
  LOPO_CEILINGS,
  leaveOnePopulationOut,
  lopoConfigurationsOf,
  lopoTables,
} from "./lib/fit/lopo.ts";
import { defaultJobs, playAll } from "./lib/fit/pool.ts";
import { chooseLambda, fitModel, thresholdsOf } from "./lib/fit/train.ts";
import { differences } from "./lib/fit/weights-file.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import { worldOf } from "./lib/sim/worlds.ts";

const KNOWN = ["worlds", "seeds", "events", "hours", "configurations", "jobs", "out"];
const args = flags();
const list = (value: string) => value.split(",").filter((x) => x.length > 0);
const options = {
  worlds: list(args.worlds ?? "random-9,random-10,random-11,random-12"),
  seeds: list(args.seeds ?? "22").map(Number),
  events: Number(args.events ?? 2500),
  hours: Number(args.hours ?? 1),
  configurations: args.configurations ?? "each",
  jobs: args.jobs === undefined ? defaultJobs() : Number(args.jobs),
};

function check() {
  const unknown = Object.keys(args).filter((name) => !KNOWN.includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown flag(s): ${unknown.map((n) => `--${n}`).join(", ")}`);
  for (const world of options.worlds) worldOf(world);
  if (options.worlds.length === 0) throw new Error("--worlds: at least one");
  if (options.seeds.length === 0 || !options.seeds.every(Number.isInteger))
    throw new Error(`--seeds: whole numbers (got ${args.seeds})`);
  for (const [name, n] of [
    ["events", options.events],
    ["jobs", options.jobs],
  ] as const)
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a whole number ≥ 1`);
  if (!(options.hours > 0)) throw new Error("--hours: more than 0");
  const training = new Set(trainingPlays().map((p) => `${p.world}/${p.seed}`));
  const reused = options.worlds.flatMap((w) =>
    options.seeds.filter((s) => training.has(`${w}/${s}`)).map((s) => `${w} seed ${s}`),
  );
  if (reused.length > 0)
    throw new Error(`held-out plays must not be training plays: ${reused.join(", ")}`);
}

async function main() {
  check();
  const began = Date.now();
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT })
    .toString()
    .trim();
  const shipped = ZWeights.parse(
    JSON.parse(await readFile(`${ROOT}/server/engine/default-weights.json`, "utf8")),
  );
  const configurations = lopoConfigurationsOf(options.configurations);
  const held = options.worlds.flatMap((world) =>
    options.seeds.map((seed) => ({ world, seed, events: options.events, hours: options.hours })),
  );
  const plays: Play[] = [
    ...trainingPlays(),
    ...configurations.flatMap((configuration) => held.map((p) => ({ ...p, configuration }))),
  ];
  const header = `held out: ${options.worlds.join(", ")} × seeds ${options.seeds.join(", ")}, ${options.events} events over ${options.hours} h each; ${configurations.length} configurations; commit ${commit}`;
  console.error(
    `${header}\nplaying ${plays.length} plays (${TRAINING.worlds.length} training, ${plays.length - TRAINING.worlds.length} held-out), ${options.jobs} at a time`,
  );
  const bar = progressBar(`playing ${plays.length} plays`.padEnd(24));
  const rows = await playAll(plays, options.jobs, (done, total) =>
    bar.update((done / total) * 100, `${done}/${total} events`),
  );
  const playSeconds = (Date.now() - began) / 1000;
  bar.done(`played ${plays.length} plays in ${playSeconds.toFixed(0)} s`);

  const training = rows.slice(0, TRAINING.worlds.length).flat();
  const heldOut: HeldOutConfiguration[] = configurations.map((configuration, k) => ({
    configuration,
    rows: rows
      .slice(
        TRAINING.worlds.length + k * held.length,
        TRAINING.worlds.length + (k + 1) * held.length,
      )
      .flat(),
  }));
  const fitBegan = Date.now();
  const shippedLambda = shipped.fitted.lambda;
  const lambda =
    typeof shippedLambda === "number" ? shippedLambda : chooseLambda(training, LAMBDAS).lambda;
  // Whether the shipped file is what these training plays fit: "in" is the shipped file.
  const full = fitModel(training, lambda);
  const fullThresholds = thresholdsOf(full, training).thresholds;
  const refit = differences(
    { ...shipped, fitted: {} },
    { ...shipped, ...full, thresholds: fullThresholds, fitted: {} },
  );
  const fitBar = progressBar("leaving each population out".padEnd(24));
  const lopo = leaveOnePopulationOut(
    {
      training,
      heldOut,
      lambda,
      shipped: { model: shipped, thresholds: shipped.thresholds },
    },
    undefined,
    (done, total, population) => fitBar.update((done / total) * 100, population),
  );
  const fitSeconds = (Date.now() - fitBegan) / 1000;
  fitBar.done(`refitted ${lopo.length} times in ${fitSeconds.toFixed(0)} s`);

  const seconds = (Date.now() - began) / 1000;
  const c = LOPO_CEILINGS;
  const sameAsShipped =
    refit.length === 0
      ? `the shipped file (${shipped.version}) is what these training plays fit`
      : `**the shipped file (${shipped.version}) is not what these training plays fit** (${refit.length} differences in weights, intercepts or thresholds: "in" is the shipped file)`;
  console.log(
    `\n## Leave one population out\n\n${header}; lambda ${lambda}; ${sameAsShipped}.\n"in": the shipped weights and thresholds; "left out": refitted on the ${TRAINING.worlds.length} training plays without the population, thresholds for the worst training world. Goals (issue 42): left out, blocked ≤ ${(c.blocked * 100).toFixed(1)}% (bold past it; reviewed past ${(c.reviewed * 100).toFixed(0)}%, people blocked past ${(c.peopleBlocked * 100).toFixed(0)}%). Judged offline (the stricter of the rules' decision and the score's action; feedback of blocks on later events ignored).\n\n${lopoTables(lopo)}\n\n${plays.length} plays in ${playSeconds.toFixed(0)} s (${options.jobs} at a time), ${lopo.length} refits in ${fitSeconds.toFixed(0)} s; ${seconds.toFixed(0)} s in all.`,
  );
  const out =
    args.out ??
    `bench/results/lopo-${options.worlds.join("+")}-${options.seeds.join("+")}.json`.replace(
      /[^A-Za-z0-9_+./-]/g,
      "_",
    );
  await mkdir(dirname(out), { recursive: true });
  const report = {
    command: `npm run lopo -- ${process.argv.slice(2).join(" ")}`.trim(),
    commit,
    ...options,
    configurations: configurations.map((x) => x.name),
    training: { worlds: TRAINING.worlds, seeds: TRAINING.seeds, events: training.length },
    shipped: { version: shipped.version, sameAsRefit: refit.length === 0, differences: refit },
    lambda,
    ceilings: c,
    seconds: { play: playSeconds, fit: fitSeconds, all: seconds },
    populations: lopo,
  };
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`report: ${out}`);
}

runMain(main, { after: cleanup });
