/**
 * `npm run simulate`: detection quality, measured. A seeded simulator drives a real Warden over
 * HTTP (the collector with a publishable key, then /api/v1/screen with a secret key; people's
 * past charges, refunds and disputes as signed Stripe webhooks) with labelled traffic: ordinary
 * people in the situations that cause false positives and attacks with realistic evasion
 * (scripts/lib/sim/). It prints per configuration how many attack
 * events were blocked or reviewed, how many ordinary events were, precision, ordinary people
 * blocked at least once, per population and per rule; and writes the same as JSON.
 *
 *   --seed 22 --events 2500 --hours 1
 *   --days 7 [--attack-from-day 5]   a week instead of an hour (scripts/lib/sim/week.ts): honest
 *                   people by the rhythm of the day and the week, attacks from that day on;
 *                   prints a table a day per configuration
 *   --world default | second | classic | random-<k>   (scripts/lib/sim/worlds.ts: the same
 *                   populations in other proportions. default: each population's own share, the
 *                   mix the rules were tuned on. second: more households, travellers, offices,
 *                   phones on CGNAT and campuses; more careful farms and rings, fewer headless
 *                   bots; with another --seed it is traffic the rules were not tuned on. classic:
 *                   default without card_farm, aged_referral_ring, hosting_burst, referral_friends
 *                   and influencer_referrals: the mix before them. random-<k>, k = 1, 2, ...: every
 *                   share and the populations' parameters (company sizes and spread, a VPN
 *                   provider's crowd, households) drawn from the ranges of random-worlds.ts; the
 *                   same k, the same world. The report starts with the world's shares and
 *                   parameters.)
 *   --template each | all | rules | <template key>   (each: every template alone, then every rule;
 *                   several separated by commas)
 *   --db embedded | postgres    (postgres: a throwaway database on DATABASE_URL / TEST_DATABASE_URL)
 *   --url http://127.0.0.1:3000 --data-dir <its DATA_DIR>   (a running Warden; wall clock: compressed time)
 *   --attack-share 0.25   --share name=weight,name=weight   --only name,name (those populations alone)
 *   --settings <file.json | JSON>   rule settings put over every configuration's (the body of
 *                   PUT /api/rule-settings), e.g. '{"rule_ip":{"window_days":30}}'
 *   --out bench/results/simulate-<seed>.json (default; simulate-<world>-<seed>.json off the default world)
 *   --two-hours     do labels teach the score? (scripts/lib/sim/two-hours.ts) One merchant, every
 *                   rule on and its thresholds at the weights' defaults: hour 1 (--seed, the world
 *                   plus an attack the default weights never saw) on the shipped weights, labelled
 *                   as a merchant would, a fit proposed and adopted; hour 2 the next day
 *                   (--second-seed, default seed + 1) on the adopted weights. --events, --world,
 *                   --db, --attack-share, --share apply (--share relay_promo_farm=N: the unseen
 *                   attack's weight, 12 by default); report bench/results/two-hours-<seed>.md, .json.
 *                   --found-out relay_promo_farm=0.5: the merchant also learns the truth of half
 *                   that population's allowed events (beside the 5% sample of all of them)
 *   --ci-baseline   run CI's small mixes (docs/detection-baseline.json's `ci` and `ci_refunds`:
 *                   world, seed, events, hours, populations, configurations) and record their
 *                   figures there for the int test. A run with no world is played on `classic`
 *                   (the mix before the careful attacks and honest referrals); with --world,
 *                   every run is played and recorded on that world instead
 *
 * Warden started here gets a simulated clock (buildApp's `now`, as tests use): the 1-minute to
 * 30-day windows see simulated time. Only 127.0.0.1 is contacted. Leave-one-attack-out tuning
 * over a grid of settings: npm run loao (scripts/loao.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import { type Baseline, CI_RUNS, ciRunOf, recordedOf } from "./lib/sim/baseline.ts";
import type { MixOptions } from "./lib/sim/mix.ts";
import {
  type ConfigurationFigures,
  populationTable,
  ruleTable,
  summaryTable,
} from "./lib/sim/report.ts";
import { configurationsOf, simulate } from "./lib/sim/run.ts";
import { twoHours, UNSEEN } from "./lib/sim/two-hours.ts";
import { twoHoursReport } from "./lib/sim/two-hours-report.ts";
import { type Configuration, remoteWarden, startWarden, type Warden } from "./lib/sim/warden.ts";
import { ATTACK_FROM_DAY, dayTable } from "./lib/sim/week.ts";
import { describeWorld, worldOf, worldReport } from "./lib/sim/worlds.ts";

const argv = process.argv.slice(2);
// Switches without a value: taken out before the --name value pairs are read.
const ciBaseline = argv.includes("--ci-baseline");
const twoHourMode = argv.includes("--two-hours");
const args = flags(argv.filter((arg) => arg !== "--ci-baseline" && arg !== "--two-hours"));
const BASELINE = `${ROOT}/docs/detection-baseline.json`;
const db = (args.db ?? "embedded") as "embedded" | "postgres";
const list = (value: string | undefined) => (value ?? "").split(",").filter(Boolean);
/** name=number pairs separated by commas (--share, --found-out). */
const numbersOf = (value: string | undefined): Record<string, number> =>
  Object.fromEntries(
    list(value).map((pair) => {
      const [name = "", weight = ""] = pair.split("=");
      return [name, Number(weight)];
    }),
  );
const shares = numbersOf(args.share);
/** The mix the flags ask for. */
const flagged: MixOptions = {
  world: args.world ?? "default",
  seed: Number(args.seed ?? 22),
  events: Number(args.events ?? 2500),
  hours: args.days ? Number(args.days) * 24 : Number(args.hours ?? 1),
  ...(args.days ? { days: Number(args.days) } : {}),
  ...(args["attack-from-day"] ? { attackFromDay: Number(args["attack-from-day"]) } : {}),
  attackShare: Number(args["attack-share"] ?? 0.25),
  shares,
  ...(args.only ? { only: list(args.only) } : {}),
};

/** Plays one mix in each configuration with a progress bar per configuration; prints the tables. */
async function play(warden: Warden, mix: MixOptions, configs: Configuration[], header: string) {
  const which = `world ${mix.world ?? "default"}, seed ${mix.seed}`;
  let bar = progressBar("");
  let current = "";
  const figures = await simulate(warden, mix, configs, (config, done, total) => {
    if (config !== current) {
      if (current) bar.done(`${current}: done`);
      current = config;
      bar = progressBar(config.padEnd(40));
    }
    bar.update((done / total) * 100, `${done}/${total}`);
  });
  bar.done(`${current}: done`);
  console.log(`\n${header}\n\n${summaryTable(figures)}`);
  for (const f of figures) {
    console.log(`\n### ${f.name} (${which})\n\n${ruleTable(f)}\n\n${populationTable(f)}`);
    if (f.days)
      console.log(
        `\nDay by day (attacks from day ${mix.attackFromDay ?? ATTACK_FROM_DAY}):\n\n${dayTable(f.days)}`,
      );
  }
  return figures;
}

const describeMix = (mix: MixOptions, where: string, commit: string) =>
  `world ${mix.world ?? "default"}, seed ${mix.seed}, ${mix.events} events over ${mix.days ? `${mix.days} days` : `${mix.hours} h`}${mix.only ? ` (only ${mix.only.join(", ")})` : ""}, ${where}, commit ${commit}`;

/** CI's runs, each played and its figures recorded in docs/detection-baseline.json. */
async function recordCiRuns(warden: Warden, where: string, commit: string) {
  const recorded = JSON.parse(await readFile(BASELINE, "utf8")) as Baseline;
  const runs: Record<string, ConfigurationFigures[]> = {};
  for (const name of CI_RUNS) {
    const run = { ...recorded[name], ...(args.world ? { world: args.world } : {}) };
    const { mix, configs } = ciRunOf(run);
    const figures = await play(warden, mix, configs, `${name}: ${describeMix(mix, where, commit)}`);
    runs[name] = figures;
    recorded[name] = {
      ...run,
      world: mix.world,
      commit,
      figures: Object.fromEntries(figures.map((f) => [f.name, recordedOf(f)])),
    };
  }
  await writeFile(BASELINE, `${JSON.stringify(recorded, null, 2)}\n`);
  console.error(`recorded in ${BASELINE}`);
  return runs;
}

/** --settings: a JSON file's path, or the JSON itself. */
async function settingsOf(value: string): Promise<Record<string, unknown>> {
  const text = existsSync(value) ? await readFile(value, "utf8") : value;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`--settings: neither a file nor JSON: ${value}`);
  }
}

/** --two-hours: both hours with a progress bar each, the report printed and written. */
async function playTwoHours(warden: Warden, where: string, commit: string) {
  const secondSeed = Number(args["second-seed"] ?? flagged.seed + 1);
  let bar = progressBar("");
  let current = "";
  const foundOut = numbersOf(args["found-out"]);
  const options = { ...flagged, secondSeed, ...(args["found-out"] ? { foundOut } : {}) };
  const result = await twoHours(warden, options, (stage, done, total) => {
    if (stage !== current) {
      if (current) bar.done(`${current}: done`);
      current = stage;
      bar = progressBar(stage.padEnd(10));
    }
    bar.update((done / total) * 100, `${done}/${total}`);
  });
  bar.done(`${current}: done`);
  const found = args["found-out"] ? `, found out besides the sample: ${args["found-out"]}` : "";
  const header = `world ${flagged.world}, seeds ${flagged.seed} and ${secondSeed}, ${flagged.events} events an hour${found}, ${where}, commit ${commit}`;
  const report = twoHoursReport(result, header, UNSEEN);
  console.log(`\n${report}`);
  const out = args.out ?? `bench/results/two-hours-${flagged.seed}.json`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out.replace(/\.json$/, ".md"), `${report}\n`);
  await writeFile(out, `${JSON.stringify({ ...options, commit, ...result }, null, 2)}\n`);
  console.error(`\nreport: ${out.replace(/\.json$/, ".md")} and ${out}`);
}

async function main() {
  if (db !== "embedded" && db !== "postgres")
    throw new Error(`--db must be embedded or postgres (got ${db})`);
  if (args.url && !args["data-dir"])
    throw new Error(
      "--url needs --data-dir (the server's DATA_DIR, where its confirmation emails land)",
    );
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT })
    .toString()
    .trim();
  worldOf(flagged.world ?? "default");
  const settings = args.settings ? await settingsOf(args.settings) : undefined;
  const configs = configurationsOf(args.template ?? "each").map((config) =>
    settings ? { ...config, settings } : config,
  );
  const warden = args.url
    ? remoteWarden(args.url, args["data-dir"] as string)
    : await startWarden(db);
  if (!warden.clock.simulated)
    console.error(
      "--url: the server keeps the wall clock, so simulated time is compressed and every window sees more traffic than it would",
    );
  const where = args.url ? `--url ${args.url}` : `${db} database`;
  if (twoHourMode) {
    await playTwoHours(warden, where, commit);
    await warden.close();
    return;
  }
  const command = `npm run simulate -- ${argv.join(" ")}`.trim();
  const report = ciBaseline
    ? { command, commit, runs: await recordCiRuns(warden, where, commit) }
    : {
        ...flagged,
        ...(settings ? { settings } : {}),
        db: args.url ? "url" : db,
        commit,
        command,
        worldMix: describeWorld(flagged.world ?? "default"),
        figures: await play(
          warden,
          flagged,
          configs,
          `${describeMix(flagged, where, commit)}${settings ? `, rule settings ${JSON.stringify(settings)}` : ""}\n\n${worldReport(flagged.world ?? "default")}`,
        ),
      };
  const world = flagged.world === "default" ? "" : `${flagged.world}-`;
  const out =
    args.out ?? `bench/results/simulate-${ciBaseline ? "ci" : `${world}${flagged.seed}`}.json`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`\nreport: ${out}`);
  await warden.close();
}

runMain(main, { after: cleanup });
