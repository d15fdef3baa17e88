/**
 * Prints one closing line, "tests: N passed, N failed, N skipped", that CI systems can read.
 * A test that was meant to run but never did because a hook of its suite or file failed (a
 * beforeAll that could not start Chromium, say) counts as failed, not skipped: Vitest reports
 * such tests as skipped, and the line said "0 failed" for a run that failed.
 */
import type { Reporter, TestCase, TestModule, TestSuite } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        counts[state === "skipped" && neverRanAfterFailure(test) ? "failed" : state] += 1;
      }
    }
    console.log(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    );
  }
}

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
