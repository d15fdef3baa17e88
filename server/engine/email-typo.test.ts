import { describe, expect, it } from "vitest";
import { typoOf } from "./email-typo.ts";

describe("typoOf", () => {
  it.each([
    ["gmial.com", "gmail.com"],
    ["gmail.co", "gmail.com"],
    ["gmaill.com", "gmail.com"],
    ["yaho.com", "yahoo.com"],
    ["hotmial.com", "hotmail.com"],
    ["outlok.com", "outlook.com"],
    ["gmail.com", null],
    ["example.com", null],
    ["gmx.net", null],
    ["mailinator.com", null],
    ["inbox3f2a.xyz", null],
  ])("%s → %s", (domain, provider) => {
    expect(typoOf(domain)).toBe(provider);
  });
});
