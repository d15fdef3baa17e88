/**
 * `npm run simulate`: detection quality, measured. A seeded simulator drives a real Warden over
 * HTTP (the collector with a publishable key, then /api/v1/screen with a secret key) with
 * labelled traffic: ordinary people in the situations that cause false positives and attacks
 * with realistic evasion (scripts/lib/sim/). It prints per configuration how many attack
 * events were blocked or reviewed, how many ordinary events were, precision, ordinary people
 * blocked at least once, per population and per rule; and writes the same as JSON.
 *
 *   --seed 22 --events 2500 --hours 1
 *   --template each | all | rules | <template key>   (each: every template alone, then every rule)
 *   --db embedded | postgres    (postgres: a throwaway database on DATABASE_URL / TEST_DATABASE_URL)
 *   --url http://127.0.0.1:3000 --data-dir <its DATA_DIR>   (a running Warden; wall clock: compressed time)
 *   --attack-share 0.25   --share name=weight,name=weight   --out bench/results/simulate-<seed>.json (default)
 *   --ci-baseline   run CI's small mix (seed, events, hours from docs/detection-baseline.json,
 *                   every template then every rule) and record its figures there for the int test
 *
 * Warden started here gets a simulated clock (buildApp's `now`, as tests use): the 1-minute to
 * 30-day windows see simulated time. Only 127.0.0.1 is contacted.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { type Baseline, recordedOf } from "./lib/sim/baseline.ts";
import { populationTable, ruleTable, summaryTable } from "./lib/sim/report.ts";
import { configurationsOf, simulate } from "./lib/sim/run.ts";
import { remoteWarden, startWarden } from "./lib/sim/warden.ts";

const argv = process.argv.slice(2);
// A switch without a value: taken out before the --name value pairs are read.
const ciBaseline = argv.includes("--ci-baseline");
const args = flags(argv.filter((arg) => arg !== "--ci-baseline"));
const BASELINE = `${ROOT}/docs/detection-baseline.json`;
const recorded = ciBaseline ? (JSON.parse(await readFile(BASELINE, "utf8")) as Baseline) : null;
const seed = Number(args.seed ?? recorded?.ci.seed ?? 22);
const events = Number(args.events ?? recorded?.ci.events ?? 2500);
const hours = Number(args.hours ?? recorded?.ci.hours ?? 1);
const db = (args.db ?? "embedded") as "embedded" | "postgres";
const out = args.out ?? `bench/results/simulate-${seed}.json`;
const shares = Object.fromEntries(
  (args.share ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => {
      const [name = "", weight = ""] = pair.split("=");
      return [name, Number(weight)];
    }),
);

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
  const configs = configurationsOf(ciBaseline ? "each" : (args.template ?? "each"));
  const warden = args.url
    ? remoteWarden(args.url, args["data-dir"] as string)
    : await startWarden(db);
  if (!warden.clock.simulated)
    console.error(
      "--url: the server keeps the wall clock, so simulated time is compressed and every window sees more traffic than it would",
    );
  let bar = progressBar("");
  let current = "";
  const mix = { seed, events, hours, attackShare: Number(args["attack-share"] ?? 0.25), shares };
  const figures = await simulate(warden, mix, configs, (config, done, total) => {
    if (config !== current) {
      if (current) bar.done(`${current}: done`);
      current = config;
      bar = progressBar(config.padEnd(40));
    }
    bar.update((done / total) * 100, `${done}/${total}`);
  });
  bar.done(`${current}: done`);
  const command = `npm run simulate -- ${process.argv.slice(2).join(" ")}`.trim();
  console.log(
    `\nseed ${seed}, ${events} events over ${hours} h, ${args.url ? `--url ${args.url}` : db} database, commit ${commit}\n`,
  );
  console.log(summaryTable(figures));
  for (const f of figures) {
    console.log(`\n### ${f.name}\n\n${ruleTable(f)}\n\n${populationTable(f)}`);
  }
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ seed, events, hours, db: args.url ? "url" : db, commit, command, figures }, null, 2)}\n`,
  );
  console.error(`\nreport: ${out}`);
  if (recorded) {
    recorded.ci = {
      ...recorded.ci,
      seed,
      events,
      hours,
      commit,
      figures: Object.fromEntries(figures.map((f) => [f.name, recordedOf(f)])),
    } as Baseline["ci"];
    await writeFile(BASELINE, `${JSON.stringify(recorded, null, 2)}\n`);
    console.error(`recorded in ${BASELINE}`);
  }
  await warden.close();
}

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
