import { describe, expect, it } from "vitest";
import type { ThresholdsView } from "../../../../shared/schemas/score-thresholds.ts";
import { draftsFrom, edited, ownInput, reset, sourceText, unsaved } from "./threshold-drafts.ts";

const DEFAULT = { review: 65, block: 80 };
const VIEW: ThresholdsView = {
  own: { login: { review: 70, block: null }, checkout: { review: null, block: null } },
  weights: { version: "default-1", thresholds: { signup: DEFAULT, login: DEFAULT } },
  types: [
    {
      type: "signup",
      in_force: DEFAULT,
      source: "template",
      templates: ["One Human One Trial"],
      template_default: DEFAULT,
    },
    {
      type: "login",
      in_force: { review: 70, block: null },
      source: "own",
      templates: [],
      template_default: null,
    },
    { type: "checkout", in_force: null, source: "own", templates: [], template_default: null },
    { type: "referral", in_force: null, source: "none", templates: [], template_default: null },
  ],
};
const row = (type: string) => {
  const found = VIEW.types.find((r) => r.type === type);
  if (!found) throw new Error(type);
  return found;
};

describe("threshold drafts", () => {
  it("starts from what is in force, own or not, with empty boxes for none", () => {
    expect(draftsFrom(VIEW)).toEqual({
      signup: { own: false, review: "65", block: "80" },
      login: { own: true, review: "70", block: "" },
      checkout: { own: true, review: "", block: "" },
      referral: { own: false, review: "", block: "" },
    });
  });

  it("sends only the own types; an edited type becomes its own, empty boxes are null", () => {
    const saved = draftsFrom(VIEW);
    expect(ownInput(saved)).toEqual({
      thresholds: {
        login: { review: 70, block: null },
        checkout: { review: null, block: null },
      },
    });
    expect(unsaved(saved, VIEW)).toBe(false);
    const typed = edited(saved, "signup", "block", "90");
    expect(ownInput(typed).thresholds.signup).toEqual({ review: 65, block: 90 });
    expect(unsaved(typed, VIEW)).toBe(true);
    // Whatever is typed goes to the schema to judge: "1.5" stays 1.5, " " is none.
    expect(ownInput(edited(saved, "referral", "review", "1.5")).thresholds.referral).toEqual({
      review: 1.5,
      block: null,
    });
    expect(ownInput(edited(saved, "referral", "review", " ")).thresholds.referral).toEqual({
      review: null,
      block: null,
    });
  });

  it("resets a type to its templates' default, or to nothing without one", () => {
    const drafts = edited(draftsFrom(VIEW), "signup", "review", "10");
    expect(reset(drafts, row("signup")).signup).toEqual({ own: false, review: "65", block: "80" });
    const login = reset(drafts, row("login"));
    expect(login.login).toEqual({ own: false, review: "", block: "" });
    expect(ownInput(login).thresholds).not.toHaveProperty("login");
  });

  it.each([
    ["signup", { own: false, review: "65", block: "80" }, "From One Human One Trial"],
    ["signup", { own: true, review: "60", block: "80" }, "Your own (not saved)"],
    ["login", { own: true, review: "70", block: "" }, "Your own"],
    ["login", { own: true, review: "71", block: "" }, "Your own (not saved)"],
    [
      "login",
      { own: false, review: "", block: "" },
      "None: the score is shown, never acted on (not saved)",
    ],
    ["referral", { own: false, review: "", block: "" }, "None: the score is shown, never acted on"],
  ] as const)("%s %j reads %s", (type, draft, text) => {
    expect(sourceText(row(type), draft, draftsFrom(VIEW)[type])).toBe(text);
  });
});
