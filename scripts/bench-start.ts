/**
 * `npm run bench:start`: how long `npm start` takes to answer and how much memory the server
 * then holds. Runs the real `npm start` as a child process with a temporary DATA_DIR and a free
 * PORT, times spawn → first 200 from /healthz, and 5 s later reads VmRSS (and VmHWM, the peak since spawn) of the node server
 * process (found among npm's descendants, not npm itself).
 *
 * Cases: first start on an empty data dir, second start on the same data dir, and, when
 * BENCH_DATABASE_URL is set, a first start on a fresh PostgreSQL database (migrations applied)
 * and a second one (up to date); each database is created and dropped here. A bare Fastify
 * process start is measured the same way for scale. BENCH_RUNS (default 3) repetitions per
 * case; the median is reported. `--json <file>` writes the bench contract's JSON.
 * Its parts (finding the server process, one timed start, the cases, the report) are in
 * scripts/bench/start/.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { bareCase, type CaseResult, embeddedCases, postgresCases } from "./bench/start/cases.ts";
import { printTable, results } from "./bench/start/report.ts";
import { ROOT } from "./lib/bench-process.ts";

async function main() {
  const jsonAt = process.argv.indexOf("--json");
  const jsonFile = jsonAt >= 0 ? process.argv[jsonAt + 1] : undefined;
  // Build first (as npm start would), so the first timed start does not include a build.
  const build = spawn("node", ["scripts/ensure-build.mjs"], { cwd: ROOT, stdio: "inherit" });
  await new Promise((r) => build.once("exit", r));

  const cases: CaseResult[] = [await bareCase(), ...(await embeddedCases())];
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) cases.push(...(await postgresCases(adminUrl)));
  else process.stderr.write("BENCH_DATABASE_URL not set: PostgreSQL cases skipped\n");

  const rows = results(cases);
  printTable(rows);
  if (jsonFile) {
    await writeFile(jsonFile, `${JSON.stringify({ bench: "start", results: rows }, null, 2)}\n`);
  }
}

await main();
