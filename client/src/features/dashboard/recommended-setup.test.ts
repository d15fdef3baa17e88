import { describe, expect, it } from "vitest";
import type { ThresholdsView } from "../../../../shared/schemas/score-thresholds.ts";
import { SCREEN_TYPES } from "../../../../shared/schemas/screening.ts";
import {
  needsSetup,
  recommendedTemplates,
  recommendedThresholds,
  templateLine,
  thresholdLines,
} from "./recommended-setup.ts";

const shipped = {
  signup: { review: 92, block: 92 },
  trial_start: { review: 96, block: null },
  promo_redemption: { review: null, block: null },
  checkout: { review: 69, block: 69 },
};

function view(
  inForce: Partial<
    Record<(typeof SCREEN_TYPES)[number], { review: number | null; block: number | null }>
  >,
  own: ThresholdsView["own"] = {},
): ThresholdsView {
  return {
    own,
    weights: { version: "default-3", thresholds: shipped },
    types: SCREEN_TYPES.map((type) => ({
      type,
      in_force: inForce[type] ?? null,
      source: inForce[type] ? "own" : "none",
      templates: [],
      template_default: null,
    })),
  };
}

describe("recommended set-up", () => {
  it.each([
    ["nothing in force", view({}), true],
    ["one type in force", view({ checkout: { review: 70, block: null } }), false],
  ])("is offered when %s: %s", (_name, v, offered) => {
    expect(needsSetup(v)).toBe(offered);
  });

  it("saves the shipped thresholds that act, keeping the merchant's own that do", () => {
    expect(recommendedThresholds(view({}, { checkout: { review: 50, block: null } }))).toEqual({
      signup: { review: 92, block: 92 },
      trial_start: { review: 96, block: null },
      checkout: { review: 50, block: null },
    });
    expect(
      recommendedThresholds(view({}, { signup: { review: null, block: null } })).signup,
    ).toEqual({ review: 92, block: 92 });
  });

  it("says each threshold in words, leaving out the levels that are not set", () => {
    expect(thresholdLines(recommendedThresholds(view({})))).toEqual([
      "signups: review from 92, block from 92",
      "trial starts: review from 96",
      "checkouts: review from 69, block from 69",
    ]);
  });

  it("turns One Human One Trial on and leaves the other templates as they are", () => {
    const current = {
      template_one_human_one_trial: false,
      template_fake_viral_growth_prevention: true,
      template_refund_abuser_flag: false,
      template_account_farm_shield: false,
      template_stealth_scraper_deterrent: false,
      template_disposable_email_throttle: false,
    };
    expect(recommendedTemplates(current)).toEqual({
      ...current,
      template_one_human_one_trial: true,
    });
    expect(templateLine().label).toBe("One Human One Trial");
  });
});
