import { describe, expect, it } from "vitest";
import type { AllowedView, ScreenReason } from "../../../../shared/schemas/screening.ts";
import {
  decisionTone,
  firedRules,
  formatAllowed,
  formatObserved,
  formatType,
  formatWho,
  monitoredVerb,
  wouldHave,
} from "./screening-format.ts";

const reason = (rule: ScreenReason["rule"], action: ScreenReason["action"] = "block") =>
  ({ rule, action, message: "m", observed: 1, limit: 1 }) satisfies ScreenReason;

describe("screening format", () => {
  it.each([
    ["block", "red"],
    ["review", "yellow"],
    ["allow", "green"],
  ] as const)("colours %s %s", (decision, tone) => {
    expect(decisionTone(decision)).toBe(tone);
  });

  it.each([
    ["u1", "a@x.test", "a@x.test (u1)"],
    [null, "a@x.test", "a@x.test"],
    ["u1", null, "u1"],
    [null, null, "-"],
  ] as const)("shows user %s and email %s as %s", (user, email, shown) => {
    expect(formatWho(user, email)).toBe(shown);
  });

  it("reads types, monitored actions and observed values", () => {
    expect(formatType("trial_start")).toBe("trial start");
    expect(wouldHave("block")).toBe("would have blocked");
    expect(wouldHave("review")).toBe("would have reviewed");
    expect(formatObserved(null)).toBe("-");
    expect(formatObserved(6)).toBe("6");
  });

  it("lists each rule once, fired before monitored", () => {
    expect(
      firedRules(
        [reason("rule_ip"), reason("rule_ip"), reason("rule_email", "review")],
        [reason("rule_entropy", "review"), reason("rule_ip")],
      ),
    ).toEqual([
      { rule: "rule_ip", monitored: false, allowed: false },
      { rule: "rule_email", monitored: false, allowed: false },
      { rule: "rule_entropy", monitored: true, allowed: false },
    ]);
  });

  const allowed: AllowedView = {
    kind: "user_id",
    value: "u1",
    added_by: "jane@shop.example",
    added_at: "2026-11-20T09:30:00.000Z",
    message: "allowed: user id on allow list, added by jane@shop.example on 2026-11-20",
    rules: ["rule_email"],
  };

  it("names the allow-list entry on the live rules it overrode, not on monitor-mode ones", () => {
    expect(formatAllowed(allowed)).toBe("user id u1, added by jane@shop.example on 2026-11-20");
    expect(monitoredVerb(reason("rule_email"), allowed)).toBe(
      "would have blocked — allowed by user id u1",
    );
    expect(monitoredVerb(reason("rule_entropy", "review"), allowed)).toBe("would have reviewed");
    expect(monitoredVerb(reason("rule_email"), null)).toBe("would have blocked");
    expect(firedRules([], [reason("rule_email"), reason("rule_entropy")], allowed.rules)).toEqual([
      { rule: "rule_email", monitored: false, allowed: true },
      { rule: "rule_entropy", monitored: true, allowed: false },
    ]);
  });
});
