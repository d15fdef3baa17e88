/**
 * Prints one closing line, "tests: N passed, N failed, N skipped", that CI systems can read.
 * A test that was meant to run but never did because a hook of its suite or file failed (a
 * beforeAll that could not start Chromium, say) counts as failed, not skipped: Vitest reports
 * such tests as skipped, and the line said "0 failed" for a run that failed.
 *
 * It also writes test-results/durations.json (every file's project, tests and seconds: import,
 * tests and hooks) and prints the ten slowest files, so a run that grew slower says where.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestCase, TestModule, TestSuite } from "vitest/node";

export const DURATIONS_FILE = join(process.cwd(), "test-results", "durations.json");

export type FileDuration = {
  file: string;
  project: string;
  tests: number;
  /** Importing the file and what it imports (not shared with earlier files of its worker). */
  importSeconds: number;
  /** Its tests and hooks. */
  runSeconds: number;
  seconds: number;
};

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        counts[state === "skipped" && neverRanAfterFailure(test) ? "failed" : state] += 1;
      }
    }
    const durations = slowestFirst(testModules.map(fileDuration));
    mkdirSync(join(DURATIONS_FILE, ".."), { recursive: true });
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(durations, null, 2)}\n`);
    console.log(`\nslowest files (all ${durations.length} in ${DURATIONS_FILE}):`);
    for (const line of slowestLines(durations)) console.log(line);
    console.log(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    );
  }
}

export function fileDuration(module: TestModule): FileDuration {
  const diagnostic = module.diagnostic();
  const importSeconds = (diagnostic.collectDuration + diagnostic.prepareDuration) / 1000;
  const runSeconds = diagnostic.duration / 1000;
  return {
    file: module.relativeModuleId,
    project: module.project.name,
    tests: [...module.children.allTests()].length,
    importSeconds: round(importSeconds),
    runSeconds: round(runSeconds),
    seconds: round(importSeconds + runSeconds),
  };
}

/** Slowest first; equal times by file, so two runs list ties alike. */
export function slowestFirst(rows: FileDuration[]): FileDuration[] {
  return [...rows].sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/** The `count` slowest files, a line each: seconds, project, file and its tests. */
export function slowestLines(rows: FileDuration[], count = 10): string[] {
  return slowestFirst(rows)
    .slice(0, count)
    .map(
      (row) =>
        `${row.seconds.toFixed(1).padStart(7)} s  ${row.project.padEnd(6)} ${row.file} (${row.tests} tests)`,
    );
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;

/** Whether a test that was not skipped on purpose sits in a suite or file that failed. */
function neverRanAfterFailure(test: TestCase): boolean {
  if (test.options.mode === "skip" || test.options.mode === "todo") return false;
  const result = test.result();
  if (result.state === "skipped" && result.note) return false; // context.skip(note) in the test
  for (let at: TestSuite | TestModule = test.parent; ; at = at.parent) {
    if (at.state() === "failed" && at.errors().length > 0) return true;
    if (at.type === "module") return false;
  }
}
