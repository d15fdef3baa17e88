import { describe, expect, it } from "vitest";
import {
  formatAction,
  formatAmount,
  formatBlockedBy,
  formatCreated,
  formatCurrency,
  formatReason,
  formatRefunded,
  formatRisk,
  outcomeTone,
  riskTone,
  stripeChargeUrl,
} from "./transaction-format.ts";

describe("dashboard formatting", () => {
  it.each([
    [19.99, "19.99"],
    [50, "50.00"],
    [0, "0.00"],
    [1500, "1500.00"], // JPY arrives in whole yen and still shows two decimals
    [0.5, "0.50"],
    [1234567.891, "1234567.89"],
  ])("amount %s → %s", (amount, shown) => {
    expect(formatAmount(amount)).toBe(shown);
  });

  it.each([
    ["usd", "USD"],
    ["jpy", "JPY"],
    ["EUR", "EUR"],
  ])("currency %s → %s", (currency, shown) => {
    expect(formatCurrency(currency)).toBe(shown);
  });

  it.each([
    [null, "-"],
    [undefined, "-"],
    ["", "-"],
    ["  ", "-"],
    ["highest_risk_level", "highest_risk_level"],
    ["risk score 82 above threshold 70", "risk score 82 above threshold 70"],
  ])("reason %j → %s", (reason, shown) => {
    expect(formatReason(reason)).toBe(shown);
  });

  it.each([
    ["Stripe", [], "Stripe"],
    // A built-in rule is named, never "Custom Rule".
    ["Custom Rule", ["Too high risk level with threshold"], "Too high risk level with threshold"],
    [
      "Custom Rule",
      ["Too high risk level with threshold", "Country blocked"],
      "Too high risk level with threshold, Country blocked",
    ],
    // Acted on before the rule's key was kept: no name to give.
    ["Custom Rule", [], "Custom Rule"],
    [null, [], "-"],
    [undefined, undefined, "-"],
  ] as const)("blocked by %j with rules %j → %s", (blockedBy, rules, shown) => {
    expect(formatBlockedBy(blockedBy, rules)).toBe(shown);
  });

  it.each([
    ["failed", "red"],
    ["blocked", "red"],
    ["succeeded", "green"],
    ["authorized", "green"],
    ["refunded", "gray"],
    ["pending", "gray"],
    ["disputed", "gray"],
    ["something_new", "gray"],
  ])("outcome %s is %s", (outcome, tone) => {
    expect(outcomeTone(outcome)).toBe(tone);
  });

  it.each([
    ["highest", "red"],
    ["elevated", "yellow"],
    ["normal", "green"],
    ["not_assessed", "green"],
    [null, "green"],
  ])("risk level %j is %s", (level, tone) => {
    expect(riskTone(level)).toBe(tone);
  });

  it.each([
    ["elevated", 65, "elevated (65)"],
    ["normal", 0, "normal (0)"],
    ["not_assessed", null, "not_assessed"],
    [null, null, "-"],
  ] as const)("risk %s / %s → %s", (level, score, shown) => {
    expect(formatRisk(level, score)).toBe(shown);
  });

  it("shows created in the given time zone", () => {
    expect(formatCreated(1_773_576_000, "en-US", "UTC")).toBe("3/15/2026, 12:00:00 PM");
    expect(formatCreated(1_773_576_000, "en-GB", "Asia/Tokyo")).toBe("15/03/2026, 21:00:00");
  });

  it.each([
    ["ch_3Pz", false, "https://dashboard.stripe.com/test/payments/ch_3Pz"],
    ["ch_3Pz", true, "https://dashboard.stripe.com/payments/ch_3Pz"],
  ])("links %s (live %s) to %s", (id, live, url) => {
    expect(stripeChargeUrl(id, live)).toBe(url);
  });

  it.each([
    [{ kind: "refund", status: "pending", error: null }, "refund pending", "yellow"],
    [{ kind: "refund", status: "done", error: null }, "refunded", "green"],
    [
      { kind: "refund", status: "failed", error: "No such charge" },
      "refund failed: No such charge",
      "red",
    ],
    [{ kind: "cancel", status: "done", error: null }, "cancelled", "green"],
    [{ kind: "cancel", status: "failed", error: null }, "cancel failed", "red"],
    [
      { kind: "refund", status: "needs_attention", error: "Fix the secret key in Settings" },
      "refund needs attention: Fix the secret key in Settings",
      "red",
    ],
  ] as const)("action %j → %s", (action, text, tone) => {
    expect(formatAction(action)).toEqual({ text, tone });
  });

  it.each([
    [[], "0.00"],
    [[{ currency: "usd", amount: 50 }], "50.00 USD"],
    [
      [
        { currency: "jpy", amount: 1500 },
        { currency: "usd", amount: 1.5 },
      ],
      "1500.00 JPY · 1.50 USD",
    ],
  ])("refunded %j → %s", (refunded, shown) => {
    expect(formatRefunded(refunded)).toBe(shown);
  });
});
