/**
 * `npm run loao`: leave-one-attack-out tuning. Plays today's settings and each candidate of a
 * grid once on one world and seed (the simulator's traffic and run: scripts/lib/sim/), then for
 * each attack picks the candidate best on the other attacks within the false-positive ceilings
 * and reports the held-out attack's recall under it, beside its recall under the defaults and
 * under the candidate picked with it in (scripts/lib/sim/loao.ts). Prints Markdown tables and
 * writes JSON.
 *
 *   --grid grid.json   {"configuration": "all", "knobs": [{"rule", "field", "values"}],
 *                   "candidates": [{"name", "settings"}], "ceilings": {"blocked", "reviewed",
 *                   "peopleBlocked"}} (default: scripts/lib/sim/loao-grid.ts, one knob at a time)
 *   --print-grid       print the default grid as a grid file and stop
 *   --configuration all | rules | <template key>   (over the grid's)
 *   --world default | second   --seed 22 --events 2500 --hours 1   (as npm run simulate)
 *   --db embedded | postgres   --url http://127.0.0.1:3000 --data-dir <its DATA_DIR>
 *   --out bench/results/loao-<world>-<seed>.json (default)
 *
 * The attacks judged are those the configuration targets (every attack for `all` and `rules`).
 * Every candidate's settings are first put on a probe merchant: one the server refuses (a rule
 * or field it does not know, a value out of range) is reported with the server's words and not
 * played; the others still are. Each run is about 20 s at 2,500 events.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import {
  type CandidateRun,
  type Ceilings,
  candidateRunOf,
  candidateTable,
  leaveOneAttackOut,
  loaoTable,
  meanRecall,
  overCeilings,
} from "./lib/sim/loao.ts";
import { type Candidate, DEFAULT_GRID, DEFAULTS, type Grid, gridOf } from "./lib/sim/loao-grid.ts";
import { buildTraffic, type MixOptions } from "./lib/sim/mix.ts";
import { pct } from "./lib/sim/report.ts";
import { configurationsOf, playConfiguration, targetsOf } from "./lib/sim/run.ts";
import {
  type Configuration,
  merchantConsole,
  putRuleSettings,
  remoteWarden,
  startWarden,
  type Warden,
} from "./lib/sim/warden.ts";
import { worldOf } from "./lib/sim/worlds.ts";

const argv = process.argv.slice(2);
const printGrid = argv.includes("--print-grid");
const args = flags(argv.filter((arg) => arg !== "--print-grid"));
const mix: MixOptions = {
  world: args.world ?? "default",
  seed: Number(args.seed ?? 22),
  events: Number(args.events ?? 2500),
  hours: Number(args.hours ?? 1),
};

/** The one configuration the grid's settings go over. */
function baseOf(name: string): Configuration {
  const configs = configurationsOf(name);
  if (configs.length !== 1 || !configs[0])
    throw new Error(
      `--configuration: one configuration (all, rules or a template key), not ${name}`,
    );
  return configs[0];
}

/** Each candidate's settings put on one probe merchant: the server's refusals, by candidate. */
async function refusals(warden: Warden, candidates: readonly Candidate[]) {
  const { api } = await merchantConsole(warden, "loao-probe");
  const refused = new Map<string, string>();
  for (const c of candidates) {
    await putRuleSettings(api, c.settings).catch((error: Error) => {
      refused.set(c.name, error.message);
      console.error(`${c.name}: not played, ${error.message}`);
    });
  }
  return refused;
}

/** Plays each candidate once, a progress bar and a line per run; a failed run is reported and skipped. */
/**
 * Each candidate plays on its own Warden (a fresh embedded database), except against --url:
 * a run moves the simulated clock past its traffic's earliest event (an influencer's account
 * made months before the hour), so fifty runs on one server reached 2056, where Stripe's
 * `created` no longer fits the charges' 32-bit column.
 */
async function playAll(
  wardenFor: () => Promise<Warden>,
  base: Configuration,
  candidates: readonly Candidate[],
  ceilings: Ceilings,
) {
  const traffic = buildTraffic(mix);
  const attacks = [
    ...new Set(traffic.filter((e) => e.attack && e.payoff).map((e) => e.population)),
  ].filter((name) => targetsOf(base).includes(name));
  const runs: (CandidateRun & { seconds: number })[] = [];
  const failed: { name: string; error: string }[] = [];
  for (const [i, c] of candidates.entries()) {
    const label = `[${i + 1}/${candidates.length}] ${c.name}`;
    const bar = progressBar(label.padEnd(56));
    const began = Date.now();
    const warden = await wardenFor();
    try {
      const config = { ...base, name: c.name, settings: c.settings };
      const figures = await playConfiguration(warden, mix, traffic, config, i, (done, total) =>
        bar.update((done / total) * 100, `${done}/${total}`),
      );
      const run = {
        ...candidateRunOf(c.settings, figures, attacks),
        seconds: (Date.now() - began) / 1000,
      };
      runs.push(run);
      const over = overCeilings(run, ceilings);
      bar.done(
        `${label}: ${run.seconds.toFixed(0)} s, mean recall ${pct(meanRecall(run, attacks))}, ordinary blocked ${pct(run.ordinary.blocked)}, reviewed ${pct(run.ordinary.reviewed)}, people blocked ${pct(run.ordinary.peopleBlocked)}${over.length ? ` (over: ${over.join(", ")})` : ""}`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ name: c.name, error: message });
      bar.done(`${label}: failed, ${message}`);
      if (c.name === DEFAULTS) throw new Error(`the defaults run failed: ${message}`);
    } finally {
      if (!args.url) await warden.close();
    }
  }
  return { attacks: attacks.sort(), runs, failed };
}

/** --grid's file, or the default grid. */
async function gridFrom(path: string | undefined): Promise<Grid> {
  if (!path) return DEFAULT_GRID;
  const text = await readFile(path, "utf8");
  try {
    return gridOf(JSON.parse(text));
  } catch (error) {
    throw new Error(`--grid ${path}: ${error instanceof Error ? error.message : error}`);
  }
}

async function main() {
  const grid = await gridFrom(args.grid);
  if (printGrid) {
    console.log(
      JSON.stringify(
        { configuration: grid.configuration, candidates: grid.candidates, ceilings: grid.ceilings },
        null,
        2,
      ),
    );
    return;
  }
  worldOf(mix.world ?? "default");
  const configuration = args.configuration ?? grid.configuration;
  const base = baseOf(configuration);
  const db = (args.db ?? "embedded") as "embedded" | "postgres";
  if (args.url && !args["data-dir"])
    throw new Error("--url needs --data-dir (the server's DATA_DIR)");
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT })
    .toString()
    .trim();
  const warden = args.url
    ? remoteWarden(args.url, args["data-dir"] as string)
    : await startWarden(db);
  const refused = await refusals(warden, grid.candidates);
  const playable = [
    { name: DEFAULTS, settings: {} },
    ...grid.candidates.filter((c) => !refused.has(c.name)),
  ];
  const header = `configuration ${configuration}, world ${mix.world}, seed ${mix.seed}, ${mix.events} events over ${mix.hours} h, commit ${commit}`;
  console.error(
    `${header}: ${playable.length} runs (today's settings and ${playable.length - 1} candidates)`,
  );
  const { attacks, runs, failed } = await playAll(
    async () => (args.url ? warden : await startWarden(db)),
    base,
    playable,
    grid.ceilings,
  );
  const defaults = runs.find((r) => r.name === DEFAULTS) as CandidateRun;
  const rows = leaveOneAttackOut(runs, defaults, attacks, grid.ceilings);
  const c = grid.ceilings;
  console.log(
    `\nLeave one attack out: ${header}\nCeilings: ordinary blocked ≤ ${pct(c.blocked)}, reviewed ≤ ${pct(c.reviewed)}, people blocked ≥ once ≤ ${pct(c.peopleBlocked)}\n\n${candidateTable(runs, attacks, c)}\n\n${loaoTable(rows)}`,
  );
  const problems = [...[...refused].map(([name, error]) => ({ name, error })), ...failed];
  if (problems.length > 0)
    console.log(
      `\nNot played or failed:\n${problems.map((p) => `- ${p.name}: ${p.error}`).join("\n")}`,
    );
  const out = args.out ?? `bench/results/loao-${mix.world}-${mix.seed}.json`;
  await mkdir(dirname(out), { recursive: true });
  const command = `npm run loao -- ${argv.join(" ")}`.trim();
  const report = {
    command,
    commit,
    configuration,
    ...mix,
    ceilings: c,
    attacks,
    runs,
    refused: Object.fromEntries(refused),
    failed,
    loao: rows,
  };
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`\nreport: ${out}`);
  await warden.close();
}

runMain(main, { after: cleanup });
