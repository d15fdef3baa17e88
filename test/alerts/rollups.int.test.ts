/**
 * The baseline's rollups on both databases: screenings over real HTTP land in their series
 * (5-minute buckets and hours alike); two instances adding to the same cells at once lose
 * nothing; a flush the database refuses keeps its counts for the next; housekeeping expires
 * buckets past their keeping and keeps the rest.
 */
import { describe, expect, it } from "vitest";
import { KEEP } from "../../server/modules/baselines/baselines.repository.ts";
import { createRollups } from "../../server/modules/baselines/rollups.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const START = Date.parse("2026-11-30T10:02:00Z");
const BOT = "python-requests/2.31";
const quiet = { warn: () => {} };

describe.each(DB_KINDS)("baseline rollups (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(START);
  withTestApp(kind, { clock, env: { ALERTS_EVERY_SECONDS: "3600" } }, (app) => {
    t = app;
  });

  const cells = async (accountId: string) => {
    const rows = await t.prisma.seriesCount.findMany({ where: { accountId } });
    const out: Record<string, number> = {};
    for (const r of rows) out[`${r.span}|${r.series}|${r.key}|${r.at}`] = Number(r.n);
    return out;
  };

  it("counts each screening into its series, by 5 minutes and by the hour", async () => {
    const merchant = await signedInMerchant(t, `rollups-http-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    for (let i = 0; i < 7; i++) {
      await backend.decide({ type: "request", user_agent: BOT, user_id: `r-${i}` });
    }
    for (let i = 0; i < 3; i++) {
      await backend.decide({
        type: "signup",
        email: `p${i}@example.com`,
        ip: "203.0.113.9",
        user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0",
      });
    }
    await t.app.services.rollups.flush();
    const got = await cells(merchant.accountId);
    const bucket = Math.floor(START / 60_000) - 2; // 10:00
    const hour = bucket; // also 10:00
    for (const [span, at] of [
      [5, bucket],
      [60, hour],
    ]) {
      expect(got[`${span}|screenings|request|${at}`]).toBe(7);
      expect(got[`${span}|screenings|signup|${at}`]).toBe(3);
      expect(got[`${span}|decision|request:review|${at}`]).toBe(7);
      expect(got[`${span}|rule|rule_scraping|${at}`]).toBe(7);
    }
    // The three signups from one /24: one network key holding 3, in both spans.
    const networks = Object.entries(got).filter(([k]) => k.includes("|signup_network|"));
    expect(networks.map(([, n]) => n)).toEqual([3, 3]);
    // Keys are digests, never the address.
    expect(JSON.stringify(got)).not.toContain("203.0.113");
  });

  it("adds up what two instances flush into the same cells at once", async () => {
    const merchant = await signedInMerchant(t, `rollups-two-${kind}@example.com`);
    const row = {
      accountId: merchant.accountId,
      createdAt: new Date(START),
      type: "login",
      decision: "allow",
      rules: [],
      score: 10,
      identities: { values: {}, legacy: {}, subject: null },
      input: {},
    };
    const a = createRollups({ sql: t.database.sql, log: quiet });
    const b = createRollups({ sql: t.database.sql, log: quiet });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 40; i++) {
        a.add(row);
        b.add(row);
      }
      await Promise.all([a.flush(), b.flush()]);
    }
    const got = await cells(merchant.accountId);
    expect(got[`5|screenings|login|${Math.floor(START / 60_000) - 2}`]).toBe(400);
    expect(got[`60|score|login|${Math.floor(START / 60_000) - 2}`]).toBe(4000);
  });

  it("stores a key of a keyed series from its second event in five hours, the first with it", async () => {
    const merchant = await signedInMerchant(t, `rollups-held-${kind}@example.com`);
    const rollups = createRollups({ sql: t.database.sql, log: quiet });
    const signup = (at: number, subnet: string) => ({
      accountId: merchant.accountId,
      createdAt: new Date(at),
      type: "signup",
      decision: "allow",
      rules: [],
      score: 0,
      identities: { values: { subnet }, legacy: {}, subject: null },
      input: {},
    });
    const H = 3_600_000;
    rollups.add(signup(START, "once")); // never again: never stored
    rollups.add(signup(START, "twice"));
    rollups.add(signup(START + 2 * H, "twice")); // within five hours: both stored
    rollups.add(signup(START, "apart"));
    rollups.add(signup(START + 6 * H, "apart")); // after five hours: only the first is forgotten...
    await rollups.flush();
    rollups.add(signup(START + 6 * H + 60_000, "apart")); // ...and the second stored with a third
    await rollups.flush();
    const weeks = await t.prisma.seriesCount.findMany({
      where: { accountId: merchant.accountId, series: "signup_network", span: 10080 },
      orderBy: { key: "asc" },
    });
    expect(weeks.map((r) => [r.key, Number(r.n)])).toEqual([
      ["apart", 2],
      ["twice", 2],
    ]);
    // The plain series count every signup: the three in the first hour, held or not.
    const got = await cells(merchant.accountId);
    expect(got[`60|screenings|signup|${Math.floor(START / 60_000) - 2}`]).toBe(3);
  });

  it("keeps the counts of a flush the database refused for the next one", async () => {
    const merchant = await signedInMerchant(t, `rollups-refused-${kind}@example.com`);
    let refuse = true;
    const flaky = {
      query: ((text: string, params?: unknown[]) => {
        if (refuse) return Promise.reject(new Error("connection lost"));
        return t.database.sql.query(text, params);
      }) as typeof t.database.sql.query,
    };
    const rollups = createRollups({ sql: flaky, log: quiet });
    const row = {
      accountId: merchant.accountId,
      createdAt: new Date(START),
      type: "checkout",
      decision: "allow",
      rules: [],
      score: 3,
      identities: { values: {}, legacy: {}, subject: null },
      input: { amount: 500, currency: "USD" },
    };
    rollups.add(row);
    await expect(rollups.flush()).rejects.toThrow("connection lost");
    expect(rollups.pending).toBeGreaterThan(0);
    rollups.add(row);
    refuse = false;
    await rollups.flush();
    expect(rollups.pending).toBe(0);
    const got = await cells(merchant.accountId);
    expect(got[`5|checkout_amount|500 usd|${Math.floor(START / 60_000) - 2}`]).toBe(2);
    // Keyed series are counted by the week, not the hour.
    const minute = Math.floor(START / 60_000);
    expect(got[`10080|checkout_amount|500 usd|${minute - (minute % 10080)}`]).toBe(2);
    expect(got[`60|checkout_amount|500 usd|${minute - 2}`]).toBeUndefined();
  });

  it("expires each kind of bucket after its keeping, and keeps the rest", async () => {
    const merchant = await signedInMerchant(t, `rollups-expiry-${kind}@example.com`);
    const now = Math.floor(START / 60_000);
    const cell = (span: number, series: string, at: number) => ({
      accountId: merchant.accountId,
      series,
      key: "k",
      span,
      at,
      n: 5n,
      seen: at,
    });
    const data = KEEP.flatMap(({ span, keep, keyed }) => {
      const series = keyed === true ? "signup_network" : span === 10080 ? "promo" : "decision";
      return [cell(span, series, now - keep - 1), cell(span, series, now - keep + 1)];
    });
    await t.prisma.seriesCount.createMany({ data });
    clock.set(new Date(START));
    const removed = await t.app.services.housekeeping.purgeExpired();
    expect(removed.baselineBuckets).toBeGreaterThanOrEqual(KEEP.length);
    const left = await t.prisma.seriesCount.findMany({
      where: { accountId: merchant.accountId },
      orderBy: [{ span: "asc" }, { series: "asc" }],
    });
    expect(left.map((r) => [r.span, r.series, now - r.at])).toEqual([
      [5, "decision", 25 * 60 - 1],
      [5, "signup_network", 5 * 60 - 1],
      [60, "decision", 35 * 24 * 60 - 1],
      [10080, "promo", 6 * 10080 - 1],
    ]);
  });

  it("drops the weeks of keys seen too rarely to lift their baseline above the floor", async () => {
    const merchant = await signedInMerchant(t, `rollups-tail-${kind}@example.com`);
    const now = Math.floor(START / 60_000);
    const week = now - (now % 10080);
    const row = (
      series: string,
      key: string,
      at: number,
      n: number,
      seenAgo: number,
      span = 10080,
    ) => ({
      accountId: merchant.accountId,
      series,
      key,
      span,
      at,
      n: BigInt(n),
      seen: now - seenAgo,
    });
    await t.prisma.seriesCount.createMany({
      data: [
        // Seen twice, last two days ago: dropped (this week's and last week's alike).
        row("signup_network", "rare", week, 2, 2 * 1440),
        row("signup_network", "rare", week - 10080, 1, 9 * 1440),
        // Seen three times: kept.
        row("signup_network", "regular", week, 3, 2 * 1440),
        // Seen once, within the last day (it may be in a window now): kept.
        row("signup_domain", "new", week, 1, 60),
        // Plain hours and 5-minute buckets are never the tail.
        row("rule", "rule_scraping", week, 1, 2 * 1440, 60),
        row("signup_network", "rare", now - (now % 5), 1, 2 * 1440, 5),
      ],
    });
    clock.set(new Date(START));
    const removed = await t.app.services.housekeeping.purgeExpired();
    expect(removed.baselineTail).toBe(2);
    const left = await t.prisma.seriesCount.findMany({
      where: { accountId: merchant.accountId },
      orderBy: [{ span: "asc" }, { series: "asc" }, { key: "asc" }],
    });
    expect(left.map((r) => `${r.span} ${r.series} ${r.key} ${r.n}`)).toEqual([
      "5 signup_network rare 1",
      "60 rule rule_scraping 1",
      "10080 signup_domain new 1",
      "10080 signup_network regular 3",
    ]);
  });
});
