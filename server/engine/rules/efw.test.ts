import { describe, expect, it } from "vitest";
import { charge, features, policy } from "../../../test/fixtures/engine.ts";
import { earlyFraudWarning } from "./efw.ts";

describe("rule_efw", () => {
  it.each([
    {
      warning: { actionable: true, fraudType: "made_with_stolen_card" },
      message: "actionable early fraud warning (made_with_stolen_card)",
    },
    {
      warning: { actionable: true, fraudType: null },
      message: "actionable early fraud warning (unspecified)",
    },
    { warning: { actionable: false, fraudType: "fraudulent" }, message: null },
    { warning: null, message: null },
  ])("$warning → $message", ({ warning, message }) => {
    const finding = earlyFraudWarning.check(
      charge({ earlyFraudWarning: warning }),
      policy(),
      features(),
    );
    expect(finding?.message ?? null).toBe(message);
  });
});
