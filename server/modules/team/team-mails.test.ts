import { describe, expect, it } from "vitest";
import { twoFactorMail } from "../two-factor/two-factor-mails.ts";
import { ownerMail, removedMail, twoFactorRequiredMail } from "./team-mails.ts";

const about = {
  to: "bob@example.com",
  by: "lead@example.com",
  account: "Acme shop",
  publicUrl: "https://warden.example",
};

describe("team mails", () => {
  it.each([
    [
      "removed: who did it, from which account",
      removedMail(about),
      "You were removed from Acme shop on Warden",
      ["lead@example.com removed you from Acme shop", "ask lead@example.com"],
    ],
    [
      "made owner: who handed it over, and where the Team page is",
      ownerMail(about),
      "You are now the owner of Acme shop on Warden",
      ["lead@example.com made you the owner", "https://warden.example/homepage/team"],
    ],
    [
      "two-factor required: where to set it up",
      twoFactorRequiredMail(about),
      "Acme shop now requires two-factor sign-in",
      ["https://warden.example/homepage/settings#two-factor"],
    ],
  ])("%s", (_name, mail, subject, lines) => {
    expect(mail.to).toBe("bob@example.com");
    expect(mail.subject).toBe(subject);
    for (const line of lines) expect(mail.text).toContain(line);
  });
});

describe("two-factor mails", () => {
  it.each([
    ["enabled", "Two-factor sign-in is on for your Warden login"],
    ["disabled", "Two-factor sign-in is off for your Warden login"],
    ["codes", "New recovery codes for your Warden login"],
  ] as const)("%s: says what changed and what to do if it was not them", (change, subject) => {
    const mail = twoFactorMail("bob@example.com", change, "https://warden.example");
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain("If it was not you");
    expect(mail.text).toContain("https://warden.example/forgot-password");
  });
});
