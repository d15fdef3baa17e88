import { describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATES, type Templates } from "../../../shared/schemas/templates.ts";
import type { Thresholds, Weights } from "../../../shared/score/weights.ts";
import { thresholdsView } from "./thresholds.service.ts";

const WEIGHTS: Weights = {
  version: "default-7",
  fitted: {},
  intercepts: {},
  weights: {},
  thresholds: {
    signup: { review: 60, block: 75 },
    trial_start: { review: 55, block: null },
    checkout: { review: null, block: null },
  },
};
const ON: Templates = {
  ...DEFAULT_TEMPLATES,
  template_one_human_one_trial: true, // signup, trial_start
  template_refund_abuser_flag: true, // checkout
};

describe("thresholdsView", () => {
  it.each<[string, Templates, Thresholds, string, unknown]>([
    [
      "a type a template judges",
      ON,
      {},
      "signup",
      {
        in_force: { review: 60, block: 75 },
        source: "template",
        templates: ["One Human One Trial"],
        template_default: { review: 60, block: 75 },
      },
    ],
    [
      "the same type with the template off",
      DEFAULT_TEMPLATES,
      {},
      "signup",
      { in_force: null, source: "none", templates: [], template_default: null },
    ],
    [
      "its own thresholds over the template's",
      ON,
      { signup: { review: 10, block: 20 } },
      "signup",
      {
        in_force: { review: 10, block: 20 },
        source: "own",
        template_default: { review: 60, block: 75 },
      },
    ],
    [
      "its own 'none' over the template's",
      ON,
      { signup: { review: null, block: null } },
      "signup",
      { in_force: null, source: "own" },
    ],
    [
      "its own on a type no template judges",
      DEFAULT_TEMPLATES,
      { login: { review: 70, block: null } },
      "login",
      {
        in_force: { review: 70, block: null },
        source: "own",
        templates: [],
        template_default: null,
      },
    ],
    [
      "a template whose default acts on nothing",
      ON,
      {},
      "checkout",
      {
        in_force: null,
        source: "none",
        templates: ["Refund Abuser Flag"],
        template_default: { review: null, block: null },
      },
    ],
    [
      "a half default",
      ON,
      {},
      "trial_start",
      { in_force: { review: 55, block: null }, source: "template" },
    ],
  ])("%s", (_name, templates, own, type, expected) => {
    const view = thresholdsView({ own, weights: WEIGHTS, templates });
    expect(view.types.find((t) => t.type === type)).toMatchObject(expected as object);
    expect(view.own).toEqual(own);
    expect(view.weights).toEqual({ version: "default-7", thresholds: WEIGHTS.thresholds });
    expect(view.types).toHaveLength(7);
  });
});
