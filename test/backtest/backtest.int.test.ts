/**
 * "Test on history" over real HTTP: screenings made live through /api/v1/screen (at set
 * times, on a test clock), charges through signed webhooks, then the backtest through tRPC.
 * With the saved settings it must reproduce every live decision exactly (seeded counts from
 * before the window, window boundaries to the millisecond, blocked trials not counting);
 * with changed, unsaved settings it reports what would change, and only for its own account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacktestJob } from "../../shared/schemas/backtest.ts";
import type { ScreenInput } from "../../shared/schemas/screening.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { backtest, pageSettings } from "../helpers/backtest.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

describe.each(DB_KINDS)("Test on history (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  // A backtest of 1 day tries today's UTC day up to now, as the dashboard counts (decision
  // 008): the window starts at a UTC midnight four days ago, and "now" is late that day.
  const windowStart = (Math.floor(Date.now() / DAY) - 4) * DAY;
  const base = windowStart - 12 * HOUR;
  const end = windowStart + DAY - MINUTE;
  const live: { id: string; at: number; decision: string; rules: string[] }[] = [];
  let refundedChargeId = "";
  let secretKey = "";

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: testClock(base) });
    merchant = await signedInMerchant(t, `history-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    secretKey = backend.key;
    const { path, webhookSecret } = await connectStripe(merchant);
    await turnOn(
      merchant,
      "rule_signup_velocity",
      "rule_device_fingerprint_reuse",
      "rule_ip",
      "rule_scraping",
      "rule_promo_velocity",
      "rule_cc_reuse",
      "rule_farming",
    );
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: {
        rule_signup_velocity: { per_ip_per_hour: 2 },
        rule_device_fingerprint_reuse: { max_users_per_device: 2, window_days: 1 },
        rule_ip: { window_days: 1 },
        rule_scraping: { requests_per_minute: 2 },
        rule_promo_velocity: { per_code_per_10_minutes: 2, per_ip_or_device_per_hour: 5 },
        rule_cc_reuse: { max_users_per_card: 2, window_days: 1, max_cards_per_hour: 5 },
        rule_farming: { max_accounts: 5, refunds: true, refund_limit: 1, refund_window_days: 1 },
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const screenAt = async (at: number, event: ScreenInput) => {
      t.clock.set(new Date(at));
      const answer = await backend.decide(event);
      if (at >= windowStart) {
        live.push({
          id: answer.id,
          at,
          decision: answer.decision,
          rules: answer.reasons.map((r) => `${r.rule}:${r.action}`),
        });
      }
    };
    // Before the window: two users on device D (they must still count inside it).
    await screenAt(base, { type: "signup", user_id: "u1", device_id: "dev-D", ip: "192.0.2.1" });
    await screenAt(base + MINUTE, { type: "signup", user_id: "u2", device_id: "dev-D" });
    // In the window: a third user on D, blocked only if the seeds count.
    await screenAt(windowStart + HOUR, { type: "login", user_id: "u3", device_id: "dev-D" });
    // Signup velocity, the third one exactly one hour after the first (the window includes it).
    const s = windowStart + 2 * HOUR;
    await screenAt(s, { type: "signup", user_id: "s1", ip: "198.51.100.7" });
    await screenAt(s + 10 * MINUTE, { type: "signup", user_id: "s2", ip: "198.51.100.7" });
    await screenAt(s + HOUR, { type: "signup", user_id: "s3", ip: "198.51.100.7" });
    await screenAt(s + HOUR + 10 * MINUTE + 1, {
      type: "signup",
      user_id: "s4",
      ip: "198.51.100.7",
    });
    // Trials on one device: the second is reviewed (a family's laptop), so it counts for the
    // third, which is blocked.
    const tr = windowStart + 4 * HOUR;
    for (const n of [0, 1, 2]) {
      await screenAt(tr + n * HOUR, { type: "trial_start", user_id: `t${n}`, device_id: "dev-T" });
    }
    // Scraping: requests at 0, 20 and 40 s, then one exactly a minute after the first.
    const rq = windowStart + 7 * HOUR;
    for (const offset of [0, 20_000, 40_000, 60_000, 120_001]) {
      await screenAt(rq + offset, { type: "request", ip: "203.0.113.9", user_agent: BROWSER });
    }
    // Promo velocity over 10 minutes, the last exactly at the boundary.
    const pr = windowStart + 9 * HOUR;
    for (const [n, offset] of [0, 5 * MINUTE, 10 * MINUTE].entries()) {
      await screenAt(pr + offset, {
        type: "promo_redemption",
        promo_code: "SPRING",
        email: `promo${n}@example.com`,
      });
    }
    // One card, three users.
    const cc = windowStart + 11 * HOUR;
    for (const n of [1, 2, 3]) {
      await screenAt(cc + n * MINUTE, {
        type: "checkout",
        user_id: `card-user-${n}`,
        card_fingerprint: "fp_shared",
      });
    }
    // A refunded charge (Radar scored it 85), then a checkout by its payer: reviewed.
    const chargeAt = windowStart + 13 * HOUR;
    t.clock.set(new Date(chargeAt));
    const charge = buildCharge({
      email: "refundy@example.com",
      riskScore: 85,
      riskLevel: "elevated",
      created: Math.floor(chargeAt / 1000),
    });
    refundedChargeId = charge.id;
    for (const event of [
      buildEvent("charge.succeeded", charge, { created: charge.created }),
      buildEvent(
        "charge.refunded",
        { ...charge, refunded: true, amount_refunded: charge.amount } as typeof charge,
        { created: charge.created + 60 },
      ),
    ]) {
      expect((await deliver(t, path, event, webhookSecret)).status).toBe(200);
    }
    await screenAt(chargeAt + HOUR, { type: "checkout", email: "refundy@example.com" });
    t.clock.set(new Date(end));
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Test on history over the last day with one rule's saved settings changed by `change`. */
  async function backtestChanging(rule: string, change: Record<string, unknown>) {
    const settings = await pageSettings(merchant);
    const ruleSettings = settings.rule_settings as Record<string, Record<string, unknown>>;
    const saved = ruleSettings[rule];
    const rule_settings = { ...ruleSettings, [rule]: { ...saved, ...change } };
    return { saved, result: await backtest(merchant, { ...settings, rule_settings, days: 1 }) };
  }

  it("made the live decisions the replay has to match (blocks and reviews from counts)", () => {
    const blockedBy = (rule: string) =>
      live.filter((d) => d.rules.includes(`${rule}:block`)).length;
    // u3's login (seeded: u1 and u2 came before the window) and the third trial on dev-T.
    expect(blockedBy("rule_device_fingerprint_reuse")).toBe(2);
    expect(live.find((d) => d.at === windowStart + HOUR)?.decision).toBe("block");
    expect(blockedBy("rule_signup_velocity")).toBe(1);
    expect(blockedBy("rule_ip")).toBe(1);
    expect(live.filter((d) => d.rules.includes("rule_ip:review"))).toHaveLength(1);
    expect(blockedBy("rule_scraping")).toBe(2);
    expect(blockedBy("rule_promo_velocity")).toBe(1);
    expect(blockedBy("rule_cc_reuse")).toBe(1);
    expect(live.filter((d) => d.rules.includes("rule_farming:review"))).toHaveLength(1);
  });

  it("reproduces every live decision with the saved settings", async () => {
    const result = await backtest(merchant, { ...(await pageSettings(merchant)), days: 1 });
    expect(result.screenings.total).toBe(live.length);
    expect(result.screenings.changes).toEqual({});
    expect(result.charges).toMatchObject({ total: 1, changes: {}, newlyBlocked: 0 });
    expect(result.items).toEqual([]);
  });

  it("with an unsaved change, lists the charge that would be blocked and was refunded later", async () => {
    const settings = await pageSettings(merchant);
    const result = await backtest(merchant, {
      ...settings,
      rules: { ...settings.rules, rule_high_risk: true },
      days: 1,
    });
    expect(result.charges).toMatchObject({
      total: 1,
      changes: { "allow→block": 1 },
      newlyBlocked: 1,
      newlyBlockedRefunded: 1,
      newlyBlockedRefundedOrDisputed: 1,
    });
    const [item] = result.items;
    expect(item).toMatchObject({
      kind: "charge",
      id: refundedChargeId,
      from: "allow",
      to: "block",
    });
    expect(item?.reasons[0]).toMatchObject({ rule: "rule_high_risk", observed: 85, limit: 70 });
    expect(result.screenings.changes).toEqual({});
  });

  it("a looser limit lifts the block it caused (scraping still reviews: no user agent)", async () => {
    const { result } = await backtestChanging("rule_signup_velocity", { per_ip_per_hour: 3 });
    expect(result.screenings.changes).toEqual({ "block→review": 1 });
    expect(result.items).toEqual([
      expect.objectContaining({
        kind: "screening",
        label: "signup s3",
        from: "block",
        to: "review",
      }),
    ]);
    expect(result.items[0]?.reasons.map((r) => r.rule)).toEqual(["rule_scraping"]);
  });

  it("tries the strict choice for a device's second trial: the reviewed one would be blocked", async () => {
    const { saved, result } = await backtestChanging("rule_ip", {
      second_trial_on_device: "block",
    });
    expect(saved?.second_trial_on_device).toBe("review");
    // The third trial was blocked already (a blocked trial does not count, so it is the
    // second again, and blocked by the choice).
    expect(result.screenings.changes).toEqual({ "review→block": 1 });
    expect(result.items).toEqual([
      expect.objectContaining({
        kind: "screening",
        label: "trial_start t1",
        from: "review",
        to: "block",
      }),
    ]);
    expect(result.items[0]?.reasons[0]).toMatchObject({
      rule: "rule_ip",
      action: "block",
      message: expect.stringContaining("you chose to block a second account's trial on a device"),
    });
  });

  it("reports what it would block against the labels, counted as Risk score counts them", async () => {
    const label = async (subject_kind: string, subject_id: string, value: string) => {
      const res = await fetch(`${t.baseUrl}/api/v1/labels`, {
        method: "POST",
        headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
        body: JSON.stringify({ subject_kind, subject_id, label: value }),
      });
      expect(res.status, await res.text()).toBeLessThan(300);
      // Labels are history, ordered by time: the next one is a second later.
      t.clock.advance(1000);
    };
    // s3's signup, blocked live by signup velocity: first called fraud, then legitimate.
    const s3 = live.find((d) => d.rules.includes("rule_signup_velocity:block"));
    expect(s3).toBeDefined();
    await label("screening", s3?.id ?? "", "fraud");
    await label("screening", s3?.id ?? "", "legitimate");
    // u3's login, blocked live by device reuse: fraud.
    const u3 = live.find((d) => d.at === windowStart + HOUR);
    await label("screening", u3?.id ?? "", "fraud");
    // A charge speaks only for the checkouts screened before it (label-verdicts.ts): this one
    // came before its payer's checkout, so it labels no screening and counts nowhere.
    await label("charge", refundedChargeId, "fraud");
    t.clock.set(new Date(end));
    const saved = await pageSettings(merchant);
    const asSaved = await backtest(merchant, { ...saved, days: 1 });
    expect(asSaved.labelled).toMatchObject({
      total: { fraud: 1, legitimate: 1 },
      block: { fraud: 1, legitimate: 1 },
      allow: { fraud: 0, legitimate: 0 },
      precision: 0.5,
      recall: 1,
    });
    // The same count as the risk score's fit reads (every label here is in the window).
    const counts = await merchant.browser.query("labels.counts");
    expect(counts).toMatchObject({ ok: true, data: { fraud: 1, legitimate: 1 } });
  });

  it("another merchant's backtest reads none of this account's data", async () => {
    const other = await signedInMerchant(t, `other-${kind}@example.com`);
    const settings = await pageSettings(merchant);
    const result = await backtest(other, {
      ...settings,
      rules: { ...settings.rules, rule_high_risk: true },
      days: 90,
    });
    expect(result.screenings.total).toBe(0);
    expect(result.charges.total).toBe(0);
    expect(result.items).toEqual([]);
    expect(result.labelled).toBeNull();
    const mine = await merchant.browser.query<BacktestJob>("backtest.status");
    expect(mine.ok && mine.data?.result?.screenings.total).toBe(live.length);
  });

  it.each([
    ["days", { days: 0 }, "days"],
    ["days", { days: 91 }, "days"],
    ["a threshold", { rules: { risk_level_threshold: 500 } }, "rules.risk_level_threshold"],
    [
      "a rule setting",
      { rule_settings: { rule_ip: { window_days: -1 } } },
      "rule_settings.rule_ip.window_days",
    ],
    [
      "choice for a device's second trial",
      { rule_settings: { rule_ip: { second_trial_on_device: "deny" } } },
      "rule_settings.rule_ip.second_trial_on_device",
    ],
    [
      "a country",
      { blocklist: { countries: ["XX"], email_providers: [] } },
      "blocklist.countries.0",
    ],
    ["description of unsaved changes", { unsaved: ["x".repeat(301)] }, "unsaved.0"],
    ["an unknown key", { extra: true }, ""],
  ])("answers a bad %s with a 400 naming the field", async (_name, change, field) => {
    const settings = await pageSettings(merchant);
    const input: Record<string, unknown> = { ...settings, days: 30 };
    for (const [key, value] of Object.entries(change)) {
      input[key] =
        typeof value === "object" && !Array.isArray(value) && key !== "blocklist" && key in settings
          ? { ...(settings as Record<string, Record<string, unknown>>)[key], ...value }
          : value;
    }
    const res = await merchant.browser.mutate("backtest.start", input);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.status).toBe(400);
    if (field) expect(res.error.data.issues?.map((i) => i.path)).toContain(field);
  });
});
