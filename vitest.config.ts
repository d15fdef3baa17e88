import { defineConfig } from "vitest/config";

// Tests run in a time zone east of UTC, as many self-hosted servers do: a time written or read
// as local somewhere shows as hours of delay (a refund due at once was due 9 h later).
const env = { TZ: "Asia/Tokyo" };

// Three kinds of tests (architecture.md): unit beside the code, *.int.test.ts against real
// databases, and browser journeys in test/e2e against the built app in Chromium.
export default defineConfig({
  test: {
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
        },
      },
      {
        test: {
          name: "int",
          include: ["{server,shared,scripts,test}/**/*.int.test.ts"],
          exclude: ["test/e2e/**", "**/node_modules/**"],
          globalSetup: ["test/helpers/global-setup.ts"],
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real Warden processes on PostgreSQL (TEST_DATABASE_URL), killed and stormed.
        test: {
          name: "faults",
          include: ["test/faults/**/*.fault.test.ts"],
          env,
          testTimeout: 240_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          env,
          globalSetup: ["test/helpers/global-setup.ts", "test/helpers/build-client.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
