/**
 * "Test on history" over screenings that carried browser signals (a collector token): the
 * replay judges them with the signals stored on the screening (Screening.signals), so the
 * saved settings reproduce the live decisions that only the signals caused (a webdriver
 * signup reviewed by rule_entropy, a hurried form, a phishing page's URL blocked by
 * rule_referrer_mismatch, a collected device shared by too many accounts), and turning
 * rule_entropy off in unsaved settings lifts exactly the reviews it made.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopCollectorKey } from "../collector/shop-key.ts";
import { backtest, pageSettings } from "../helpers/backtest.ts";
import { humanSignals, tokenFor } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("Test on history with browser signals (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  const live: { email: string; decision: string; rules: string[] }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `history-signals-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const pk = await shopCollectorKey(merchant);
    await turnOn(
      merchant,
      "rule_entropy",
      "rule_referrer_mismatch",
      "rule_device_fingerprint_reuse",
    );
    const screen = async (email: string, signals: Record<string, unknown>) => {
      t.clock.advance(60_000);
      const answer = await backend.decide({
        type: "signup",
        email,
        signals: await tokenFor(t, pk, humanSignals(signals)),
      });
      live.push({
        email,
        decision: answer.decision,
        rules: answer.reasons.map((r) => `${r.rule}:${r.action}`),
      });
    };
    await screen("human@example.com", {});
    await screen("robot@example.com", { webdriver: true });
    await screen("hurried@example.com", {
      behavior: { ...humanSignals().behavior, time_to_submit_ms: 240 },
    });
    await screen("phished@example.com", { url: "https://phish.example.org/signup" });
    // The collected device (the backend sent none) shared by four accounts: the last blocked.
    for (const n of [1, 2, 3, 4]) {
      await screen(`farm${n}@example.com`, { device_id: "wd1_sharedsharedsharedshared0000" });
    }
    // The window ends at "now", exclusive: the last screening must be before it.
    t.clock.advance(60_000);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("made live decisions that only the signals could cause", () => {
    const of = (email: string) => live.find((d) => d.email === email);
    expect(of("human@example.com")).toMatchObject({ decision: "allow", rules: [] });
    expect(of("robot@example.com")).toMatchObject({
      decision: "review",
      rules: ["rule_entropy:review"],
    });
    expect(of("hurried@example.com")).toMatchObject({
      decision: "review",
      rules: ["rule_entropy:review"],
    });
    expect(of("phished@example.com")?.decision).toBe("block");
    expect(of("phished@example.com")?.rules).toContain("rule_referrer_mismatch:block");
    expect(of("farm4@example.com")).toMatchObject({
      decision: "block",
      rules: ["rule_device_fingerprint_reuse:block"],
    });
  });

  it("reproduces every live decision with the saved settings", async () => {
    // Two UTC days (today and yesterday): the screenings are minutes old, even at midnight.
    const result = await backtest(merchant, { ...(await pageSettings(merchant)), days: 2 });
    expect(result.screenings.total).toBe(live.length);
    expect(result.screenings.changes).toEqual({});
    expect(result.items).toEqual([]);
  });

  it("with rule_entropy off (unsaved), lifts the two reviews the signals caused, and only those", async () => {
    const settings = await pageSettings(merchant);
    const result = await backtest(merchant, {
      ...settings,
      rules: { ...settings.rules, rule_entropy: false },
      days: 2,
    });
    expect(result.screenings.changes).toEqual({ "review→allow": 2 });
    expect(result.items.map((item) => item.label).sort()).toEqual([
      "signup hurried@example.com",
      "signup robot@example.com",
    ]);
  });
});
