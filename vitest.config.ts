import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test/helpers/slow-first-sequencer.ts";

// Tests run in a time zone east of UTC, as many self-hosted servers do: a time written or read
// as local somewhere shows as hours of delay (a refund due at once was due 9 h later).
const env = { TZ: "Asia/Tokyo" };

// expect.poll gives up after 1 s by default: a page that loads its rows in 1.2 s on a busy
// machine failed collector-console.e2e once (rows 0, expected 2). A poll is for something that
// will happen; how long it may take is the test's timeout's business, not a second's.
const expectOptions = { poll: { timeout: 15_000 } };

// Three kinds of tests (architecture.md): unit beside the code, *.int.test.ts against real
// databases, and browser journeys in test/e2e against the built app in Chromium.
//
// Both cores of a CI machine (decision 034): two workers, and no fresh process per file for
// unit and integration files (`isolate: false`): a worker imports the server once and runs
// its files one after another. No test mocks modules (vi.mock), and each file isolates by
// account or by its own database, so files share nothing but the imported code. The groups
// run one after another: unit and integration files together, then the browser journeys (two
// Chromium-driven files at once), then the fault suite, which kills processes and storms two
// servers, one file at a time.
export default defineConfig({
  test: {
    maxWorkers: 2,
    // The slowest files start first, so a long one does not run alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          // test/repo: checks of the repository itself (import rules, docs, container files).
          include: [
            "{server,shared,client,scripts,sdk}/**/*.test.{ts,tsx}",
            "test/repo/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          environment: "node",
          env,
          expect: expectOptions,
          // Sharing two cores with integration files: CPU-bound checks get room.
          testTimeout: 20_000,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "int",
          include: ["{server,shared,scripts,test}/**/*.int.test.ts"],
          exclude: ["test/e2e/**", "**/node_modules/**"],
          globalSetup: ["test/helpers/global-setup.ts"],
          env,
          expect: expectOptions,
          // Two files share the two cores: a test that takes 15 s alone may take twice that.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          env,
          expect: expectOptions,
          globalSetup: ["test/helpers/global-setup.ts", "test/helpers/build-client.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Two at a time too: each file has its own app, merchant and browser context.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Real Warden processes on PostgreSQL (TEST_DATABASE_URL), killed and stormed.
        test: {
          name: "faults",
          include: ["test/faults/**/*.fault.test.ts"],
          env,
          expect: expectOptions,
          testTimeout: 240_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
