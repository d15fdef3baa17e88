/**
 * The backtest's worker thread, run from source as the service runs it: it prepares stored
 * screenings (JSON text as read) exactly as the main thread would, reports a failure as its
 * own, and the pipeline hands batches back in order. The full backtest through the worker,
 * against the live path's decisions, is test/backtest/*.int.test.ts on both databases.
 */
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BLOCKLIST } from "../../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES, RULE_KEYS } from "../../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import { policyOf } from "./backtest.service.ts";
import { prepareScreening, type RawScreening } from "./backtest-prepare.ts";
import { createPrepareWorker, type PrepareWorker } from "./prepare-worker.ts";

const policy = policyOf({
  rules: { ...DEFAULT_RULES, ...Object.fromEntries(RULE_KEYS.map((key) => [key, true])) },
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  blocklist: DEFAULT_BLOCKLIST,
  days: 30,
});
const base = { disposableDomains: disposableEmailBlocklistSet() };
const AT = 1_800_000_000_000;

const ROWS: RawScreening[] = [
  {
    at: AT,
    input: JSON.stringify({
      type: "signup",
      email: "Jo.Hn+x@Gmail.com",
      ip: "203.0.113.9",
      device_id: "d1",
      user_agent: "curl/8.0",
      timezone: "Europe/Paris",
    }),
    signals: null,
  },
  {
    at: AT + 1,
    input: JSON.stringify({
      type: "checkout",
      user_id: "u1",
      email: "x8f3kq9z@mailinator.com",
      card_fingerprint: "fp1",
    }),
    signals: JSON.stringify({
      collect_ip: "2001:db8::1",
      device_id: "d2",
      timezone: "America/New_York",
      origin: "https://shop.example",
      webdriver: true,
      behavior: null,
    }),
  },
  {
    at: AT + 2,
    input: { type: "referral", user_id: "u2", referrer_user_id: "u1", ip: "198.51.100.7" },
    signals: null,
  },
];

let worker: PrepareWorker | null = null;
afterEach(async () => {
  await worker?.close();
  worker = null;
});

describe("backtest worker", () => {
  it("prepares stored screenings as this thread would", async () => {
    worker = createPrepareWorker(policy, base);
    const prepared = await worker.prepare(ROWS);
    const here = ROWS.map((row) => prepareScreening(row, policy, base));
    expect(prepared).toEqual(here);
    expect(prepared[1]?.subject).toMatchObject({ ip: "2001:db8::1", deviceId: "d2" });
    expect(prepared[0]?.ids.values.email).toMatch(/^[0-9a-f]{32}$/);
  });

  it("reports what failed in the worker", async () => {
    worker = createPrepareWorker(policy, base);
    await expect(worker.prepare([{ at: AT, input: "{not json", signals: null }])).rejects.toThrow(
      /backtest worker: SyntaxError/,
    );
    // The worker goes on with the next batch.
    expect(await worker.prepare(ROWS.slice(0, 1))).toHaveLength(1);
  });

  it("hands batches back in order, each with its own events", async () => {
    worker = createPrepareWorker(policy, base);
    async function* batches() {
      for (let n = 0; n < 5; n++) yield [n, n + 100];
    }
    const seen: { rows: number[]; at: (number | undefined)[] }[] = [];
    // A checkout's refund-history query starts a fixed time before the event: a marker of
    // which event was prepared.
    for await (const { rows, prepared } of worker.pipeline(batches(), (n) => ({
      ...(ROWS[1] as RawScreening),
      at: AT + n * 1000,
    }))) {
      seen.push({ rows, at: prepared.map((p) => p.history?.since) });
    }
    expect(seen.map((s) => s.rows)).toEqual([0, 1, 2, 3, 4].map((n) => [n, n + 100]));
    const since = prepareScreening(ROWS[1] as RawScreening, policy, base).history?.since ?? 0;
    expect(seen[3]?.at).toEqual([since + 3, since + 103]);
  });
});
