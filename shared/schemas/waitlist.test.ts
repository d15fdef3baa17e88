import { describe, expect, it } from "vitest";
import { MESSAGES } from "../messages.ts";
import { checkWaitlistEmail, WAITLIST_EMAIL_MAX, ZWaitlistJoin } from "./waitlist.ts";

const longLocal = "a".repeat(WAITLIST_EMAIL_MAX - "@example.com".length);

const VALID: [what: string, input: string, stored: string][] = [
  ["a plain address", "owner@example.com", "owner@example.com"],
  ["the shortest shape", "a@b.c", "a@b.c"],
  [
    "plus tags and subdomains",
    "first.last+news@mail.example.co.uk",
    "first.last+news@mail.example.co.uk",
  ],
  ["upper case, lowercased", "Owner@Example.COM", "owner@example.com"],
  ["surrounding spaces and tabs, trimmed", "  \towner@example.com \n", "owner@example.com"],
  ["a surrounding no-break space, trimmed", "\u00a0owner@example.com\u00a0", "owner@example.com"],
  ["unicode local part and domain", "Jürgen@Exämple.de", "jürgen@exämple.de"],
  ["non-Latin scripts", "用户@例子.广告", "用户@例子.广告"],
  ["an emoji", "😀@example.com", "😀@example.com"],
  ["a second at-sign (the spec's rule allows it)", "a@b@example.com", "a@b@example.com"],
  ["exactly the maximum length", `${longLocal}@example.com`, `${longLocal}@example.com`],
];

const INVALID: [what: string, input: string][] = [
  ["empty", ""],
  ["only spaces", "   "],
  ["no at-sign", "owner.example.com"],
  ["no dot after the at-sign", "owner@example"],
  ["nothing before the at-sign", "@example.com"],
  ["nothing between the at-sign and the dot", "owner@.com"],
  ["nothing after the dot", "owner@example."],
  ["a space inside the local part", "own er@example.com"],
  ["a space inside the domain", "owner@exam ple.com"],
  ["a no-break space inside", "own\u00a0er@example.com"],
  ["an ideographic space inside", "own\u3000er@example.com"],
  ["a line break inside", "owner@exa\nmple.com"],
  ["one character over the maximum", `${longLocal}a@example.com`],
];

describe("waitlist email rule", () => {
  it.each(VALID)("accepts %s", (_what, input, stored) => {
    expect(checkWaitlistEmail(input)).toEqual({ ok: true, email: stored });
    expect(ZWaitlistJoin.parse({ email: input })).toEqual({ email: stored });
  });

  it.each(INVALID)("refuses %s with the spec's message", (_what, input) => {
    expect(checkWaitlistEmail(input)).toEqual({
      ok: false,
      message: MESSAGES.waitlistInvalidEmail,
    });
    const parsed = ZWaitlistJoin.safeParse({ email: input });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ["email"], message: MESSAGES.waitlistInvalidEmail }),
    ]);
  });

  it.each([
    ["a number", { email: 42 }],
    ["a missing email", {}],
    ["null", { email: null }],
  ])("refuses %s as input with the spec's message", (_what, input) => {
    const parsed = ZWaitlistJoin.safeParse(input);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["email"],
      message: MESSAGES.waitlistInvalidEmail,
    });
  });

  it("refuses unknown fields, so a typo in a client is loud", () => {
    expect(ZWaitlistJoin.safeParse({ email: "a@b.co", name: "x" }).success).toBe(false);
  });
});
