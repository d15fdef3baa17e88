/**
 * `npm run fit`: the risk score's default weights, fitted on the simulator's labelled traffic
 * and written to server/engine/default-weights.json (scripts/lib/fit/: one seed on each of
 * several randomized worlds played with every rule on, L2-regularized logistic regression with
 * lambda chosen on held-out worlds, thresholds at the false-positive ceilings of the worst
 * world). The same plays give the same file.
 *
 *   (no flag)   fit and write the file; its version ("default-<n>") goes up when its content changes;
 *               and record the rows it fitted (scripts/lib/fit/training-rows.json.gz, recorded-rows.ts)
 *   --check     play everything again, fit and compare with the shipped file and the recorded rows:
 *               exit 1 with the differences unless equal (CI refits the recording and replays the
 *               first events of every play: test/simulation/fit.int.test.ts)
 *   --report    fit, then judge the shipped weights on held-out seeds of the default and the second
 *               world (score alone, rules alone, both; per attack; leave one attack out;
 *               calibration) and write docs/score.md, and the figures to bench/results/fit-report.json
 *   --jobs 2    plays (a world and a seed) at once, each in its own process with its own Warden (default: 2, or
 *               1 on one core); the result does not depend on it
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import type { Weights } from "../shared/score/weights.ts";
import { ZWeights } from "../shared/score/weights.ts";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import type { Play, Row } from "./lib/fit/collect.ts";
import { fitDefault, TRAINING, trainingPlays } from "./lib/fit/default-fit.ts";
import { judge } from "./lib/fit/evaluate.ts";
import { leaveOneAttackOut } from "./lib/fit/loao.ts";
import { defaultJobs, playAll } from "./lib/fit/pool.ts";
import {
  encodeRows,
  labelledOf,
  RECORDED_ROWS,
  writeRecordedRows,
} from "./lib/fit/recorded-rows.ts";
import { type HeldOut, scoreDoc } from "./lib/fit/score-doc.ts";
import { CEILINGS } from "./lib/fit/thresholds.ts";
import { type Labelled, scoreWith } from "./lib/fit/train.ts";
import { differences, fileText, versioned } from "./lib/fit/weights-file.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { pct } from "./lib/sim/report.ts";

const argv = process.argv.slice(2);
const check = argv.includes("--check");
const report = argv.includes("--report");
const args = flags(argv.filter((a) => a !== "--check" && a !== "--report"));
const jobs = args.jobs === undefined ? defaultJobs() : Number(args.jobs);
const WEIGHTS = `${ROOT}/server/engine/default-weights.json`;
const DOC = `${ROOT}/docs/score.md`;

/** The held-out seeds the report judges the weights on: neither world is a training world. */
const HELD_OUT = [
  { world: "default", seeds: [22, 23, 24, 25] },
  { world: "second", seeds: [4242, 4243, 4244, 4245] },
] as const;

const COMMANDS = {
  fit: "npm run fit",
  check: "npm run fit -- --check",
  report: "npm run fit -- --report",
};

async function shipped(): Promise<Weights> {
  return ZWeights.parse(JSON.parse(await readFile(WEIGHTS, "utf8")));
}

/** Every play's rows (in the order given), with one progress bar over all of them. */
async function played(plays: Play[]): Promise<Row[][]> {
  const bar = progressBar(`playing ${plays.length} plays, ${jobs} at a time`.padEnd(36));
  const began = Date.now();
  const rows = await playAll(plays, jobs, (done, total) =>
    bar.update((done / total) * 100, `${done}/${total} events`),
  );
  bar.done(`played ${plays.length} plays in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  return rows;
}

function fitted(rows: readonly Labelled[]) {
  const began = Date.now();
  const fit = fitDefault(rows);
  console.error(
    `fitted ${rows.length} events in ${((Date.now() - began) / 1000).toFixed(1)} s: lambda ${fit.lambda.lambda} (${fit.lambda.losses.map((l) => `${l.lambda}: ${l.logLoss.toFixed(5)}`).join(", ")})`,
  );
  return fit;
}

async function writeReport(current: Weights, began: number) {
  const heldPlays = HELD_OUT.flatMap((h) =>
    h.seeds.map((seed) => ({
      world: h.world,
      seed,
      events: TRAINING.events,
      hours: TRAINING.hours,
    })),
  );
  const plays = [...trainingPlays(), ...heldPlays];
  const all = await played(plays);
  const playSeconds = (Date.now() - began) / 1000;
  const training = all.slice(0, TRAINING.worlds.length).flat();
  const fit = fitted(training);
  const fresh = versioned(current, fit.file);
  let offset = TRAINING.worlds.length;
  const shippedModel = { intercepts: current.intercepts, weights: current.weights };
  const heldOut: HeldOut[] = HELD_OUT.map((h) => {
    const rows = all.slice(offset, offset + h.seeds.length).flat();
    offset += h.seeds.length;
    console.error(
      `world ${h.world}: judging ${rows.length} held-out events, leaving each attack out…`,
    );
    return {
      world: h.world,
      seeds: h.seeds,
      judged: judge(rows, shippedModel, current.thresholds),
      loao: leaveOneAttackOut(training, rows, fit.lambda.lambda, {
        model: shippedModel,
        thresholds: current.thresholds,
      }),
    };
  });
  // Warden scored every event with the shipped file too: the offline score must be its own.
  const rows = all.flat();
  const shippedScoring = { ...shippedModel, thresholds: current.thresholds };
  const sameScore = rows.filter((r) => scoreWith(shippedScoring, r).score === r.score).length;
  const seen: Record<string, { ordinary: number; attack: number }> = {};
  for (const key of Object.keys(current.weights)) seen[key] = { ordinary: 0, attack: 0 };
  for (const row of training) {
    for (const key of Object.keys(row.signals)) {
      const s = seen[key] ?? { ordinary: 0, attack: 0 };
      seen[key] = s;
      if (row.attack) s.attack += 1;
      else s.ordinary += 1;
    }
  }
  const doc = scoreDoc({
    weights: current,
    differences: differences(current, fresh),
    lambda: fit.lambda,
    training: { worlds: TRAINING.worlds, seeds: TRAINING.seeds, events: training.length },
    seen,
    heldOut,
    sameScore: { same: sameScore, events: rows.length },
    commands: COMMANDS,
    timing: {
      plays: plays.length,
      playSeconds,
      reportSeconds: (Date.now() - began) / 1000,
      jobs,
      cores: availableParallelism(),
    },
  });
  await writeFile(DOC, doc);
  const out = `${ROOT}/bench/results/fit-report.json`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ weights: current.version, sameScore, heldOut: heldOut.map(({ judged: _, ...h }) => h) }, null, 2)}\n`,
  );
  console.error(`wrote ${DOC} and ${out}`);
}

async function main() {
  const unknown = Object.keys(args).filter((name) => name !== "jobs");
  if (unknown.length > 0)
    throw new Error(`unknown flag(s): ${unknown.map((n) => `--${n}`).join(", ")}`);
  if (check && report) throw new Error("--check or --report, not both");
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`--jobs: a whole number ≥ 1 (got ${args.jobs})`);
  const began = Date.now();
  const current = await shipped();
  if (report) return writeReport(current, began);
  const plays = (await played(trainingPlays())).map((rows) => rows.map(labelledOf));
  const fit = fitted(plays.flat());
  const fresh = versioned(current, fit.file);
  const diff = differences(current, fresh);
  const seconds = ((Date.now() - began) / 1000).toFixed(0);
  if (check) {
    const recorded = await readFile(RECORDED_ROWS).catch(() => Buffer.alloc(0));
    if (!encodeRows(plays).equals(recorded))
      diff.push(`${RECORDED_ROWS} is not what the training plays play`);
    if (diff.length === 0) {
      console.log(
        `server/engine/default-weights.json (${current.version}) is what npm run fit makes (${seconds} s)`,
      );
      return;
    }
    console.log(
      `server/engine/default-weights.json (${current.version}) is not what npm run fit makes: ${diff.length} difference(s)\n${diff.map((d) => `  ${d}`).join("\n")}\nRun npm run fit and commit the file.`,
    );
    process.exitCode = 1;
    return;
  }
  await writeFile(WEIGHTS, fileText(fresh));
  await writeRecordedRows(plays);
  const thresholds = Object.entries(fresh.thresholds)
    .map(([type, t]) => `${type} ${t?.review ?? "–"}/${t?.block ?? "–"}`)
    .join(", ");
  console.log(
    `${diff.length === 0 ? "unchanged" : `${diff.length} change(s)`}: wrote ${WEIGHTS} (${fresh.version}) in ${seconds} s`,
  );
  console.log(
    `thresholds (review/block): ${thresholds}; on the training data, ordinary events of each type blocked ≤ ${pct(CEILINGS.blocked)}, reviewed or blocked ≤ ${pct(CEILINGS.flagged)}`,
  );
}

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
