/**
 * `npm run bench`: every benchmark, one after another (never two at once: they would measure
 * each other), each in a process of its own with `--json <file>`, collected into
 * bench/results/<date>.json and a Markdown table in bench/results/<date>.md, which is also
 * printed at the end. Each benchmark prints its own progress and table as it goes.
 *
 * Options: --only start,webhooks (a comma list of names), --skip backtest. Extra arguments for
 * one benchmark come from BENCH_<NAME>_ARGS, e.g. BENCH_DASHBOARD_ARGS="--rows 100000".
 * PostgreSQL figures need a server: BENCH_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres); every benchmark creates and drops its own
 * database there.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gitCommit, loadAverage, machine as thisMachine } from "./bench/machine.ts";
import { type BenchResult, markdownTable, type Outcome } from "./bench/report.ts";
import { flags } from "./lib/progress.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PG_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** In the order they run: the cheap, quiet ones first. */
const BENCHES = [
  { name: "start", script: "scripts/bench-start.ts", what: "start time and memory" },
  { name: "dashboard", script: "scripts/bench-dashboard.ts", what: "dashboard load" },
  { name: "webhooks", script: "scripts/bench-webhooks.ts", what: "Stripe webhook ingest" },
  { name: "screen", script: "scripts/bench-screen.ts", what: "screening API" },
  { name: "backtest", script: "scripts/bench-backtest.ts", what: "rules tried on history" },
  { name: "review", script: "scripts/bench-review.ts", what: "review queue at 100,000 open" },
] as const;

function run(script: string, args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: ROOT,
      // Every benchmark measures PostgreSQL too, on the same server.
      env: { ...process.env, BENCH_DATABASE_URL: PG_ADMIN_URL },
      stdio: "inherit",
    });
    const stop = () => child.kill("SIGINT");
    process.once("SIGINT", stop);
    child.once("error", fail);
    child.once("exit", (code, signal) => {
      process.off("SIGINT", stop);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

async function benchOne(
  bench: (typeof BENCHES)[number],
  workDir: string,
  index: number,
  count: number,
): Promise<Outcome> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  console.error(`\n[${index}/${count}] ${bench.name}: ${bench.what}`);
  if (!existsSync(join(ROOT, bench.script))) {
    return { bench: bench.name, status: "missing", seconds: 0, error: `${bench.script} not found` };
  }
  const out = join(workDir, `${bench.name}.json`);
  const extra =
    process.env[`BENCH_${bench.name.toUpperCase()}_ARGS`]?.split(" ").filter(Boolean) ?? [];
  const code = await run(bench.script, [...extra, "--json", out]);
  if (code !== 0 || !existsSync(out)) {
    return {
      bench: bench.name,
      status: "failed",
      seconds: seconds(),
      error: code !== 0 ? `exited with ${code}` : "wrote no results",
    };
  }
  const parsed = JSON.parse(await readFile(out, "utf8")) as { results: BenchResult[] };
  return { bench: bench.name, status: "ok", seconds: seconds(), results: parsed.results };
}

async function main() {
  const args = flags();
  const only = args.only?.split(",").filter(Boolean);
  const skip = args.skip?.split(",").filter(Boolean) ?? [];
  for (const name of [...(only ?? []), ...skip]) {
    if (!BENCHES.some((bench) => bench.name === name)) {
      console.error(`unknown benchmark "${name}": one of ${BENCHES.map((b) => b.name).join(", ")}`);
      process.exit(2);
    }
  }
  const chosen = BENCHES.filter(
    (bench) => (!only || only.includes(bench.name)) && !skip.includes(bench.name),
  );
  const started = new Date();
  const machine = thisMachine();
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-"));
  const outcomes: Outcome[] = [];
  try {
    for (const [i, bench] of chosen.entries()) {
      outcomes.push(await benchOne(bench, workDir, i + 1, chosen.length));
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }

  const stamp = started.toISOString().slice(0, 16).replace(":", "");
  const resultsDir = join(ROOT, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  const report = {
    date: started.toISOString(),
    commit: gitCommit(),
    machine: { ...machine, loadavgAtEnd: loadAverage() },
    outcomes,
  };
  const table = markdownTable(outcomes);
  const heading =
    `Warden ${report.commit}, ${started.toISOString().slice(0, 10)}: ${machine.cpus} × ${machine.cpu}, ` +
    `${machine.memoryGiB} GiB, Node ${machine.node}; load average ${machine.loadavgAtStart.join(" ")} ` +
    `at start, ${report.machine.loadavgAtEnd.join(" ")} at the end.`;
  await writeFile(join(resultsDir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(resultsDir, `${stamp}.md`), `${heading}\n\n${table}\n`);
  console.log(`\n${heading}\n\n${table}\n\nResults: bench/results/${stamp}.json and .md`);
  if (outcomes.some((outcome) => outcome.status === "failed")) process.exitCode = 1;
}

await main();
