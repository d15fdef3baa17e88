import { describe, expect, it } from "vitest";
import type { AllowKind } from "../../shared/schemas/allow-list.ts";
import { charge, event, eventFeatures, features, policy } from "../../test/fixtures/engine.ts";
import { evaluate } from "./evaluate.ts";
import type { AllowListEntry, Policy } from "./types.ts";

const entry = (kind: AllowKind, value: string): AllowListEntry => ({
  kind,
  value,
  addedBy: "jane@shop.example",
  addedAt: "2026-11-20T09:30:00.000Z",
  expiresAt: null,
});

/** Disposable-email blocking on, so every event below would be blocked without the list. */
const withList = (entries: AllowListEntry[], blocked: string[] = []): Policy => ({
  ...policy({ rule_email: true }, { email_providers: blocked }),
  allowList: entries,
});
const disposable = features(["mailinator.com", "blocked.example"]);
const eventFeaturesOf = (email: string) => ({
  ...eventFeatures({ normalizedEmail: email }),
  disposableDomains: disposable.disposableDomains,
});
const ev = (overrides: Parameters<typeof event>[0] = {}) =>
  event({ email: "x@mailinator.com", ...overrides });

describe("allow list", () => {
  it.each([
    { name: "a user id", list: [entry("user_id", "user_1")], subject: ev(), allowed: "user_id" },
    {
      name: "an email",
      list: [entry("email", "x@mailinator.com")],
      subject: ev(),
      allowed: "email",
    },
    {
      name: "an email written differently (case)",
      list: [entry("email", "x@mailinator.com")],
      subject: ev({ email: "X@Mailinator.com" }),
      allowed: "email",
    },
    {
      name: "an email domain",
      list: [entry("email_domain", "mailinator.com")],
      subject: ev(),
      allowed: "email_domain",
    },
    { name: "a device", list: [entry("device", "dev_1")], subject: ev(), allowed: "device" },
    { name: "an IP", list: [entry("ip_cidr", "203.0.113.7")], subject: ev(), allowed: "ip_cidr" },
    {
      name: "an IPv4 range",
      list: [entry("ip_cidr", "203.0.113.0/24")],
      subject: ev(),
      allowed: "ip_cidr",
    },
    {
      name: "an IPv6 range",
      list: [entry("ip_cidr", "2001:db8::/32")],
      subject: ev({ ip: "2001:db8:1::5" }),
      allowed: "ip_cidr",
    },
    {
      name: "a card fingerprint",
      list: [entry("card_fingerprint", "fp_1")],
      subject: ev({ cardFingerprint: "fp_1" }),
      allowed: "card_fingerprint",
    },
    { name: "not another user", list: [entry("user_id", "user_2")], subject: ev(), allowed: null },
    {
      name: "not an IP outside the range",
      list: [entry("ip_cidr", "198.51.100.0/24")],
      subject: ev(),
      allowed: null,
    },
    {
      name: "not a device on a charge",
      list: [entry("device", "dev_1")],
      subject: charge({ email: "x@mailinator.com" }),
      allowed: null,
    },
    {
      name: "a card on a charge",
      list: [entry("card_fingerprint", "fp_1")],
      subject: charge({ email: "x@mailinator.com", cardFingerprint: "fp_1" }),
      allowed: "card_fingerprint",
    },
  ])("allows by $name", ({ list, subject, allowed }) => {
    const result = evaluate(
      subject,
      withList(list),
      subject.kind === "event" ? eventFeaturesOf("x@mailinator.com") : disposable,
    );
    expect(result.allowed?.kind ?? null).toBe(allowed);
    expect(result.decision).toBe(allowed ? "allow" : "block");
  });

  it("says which entry allowed the event and keeps what the rules found as would-have", () => {
    const result = evaluate(
      ev(),
      withList([entry("user_id", "user_1")]),
      eventFeaturesOf("x@mailinator.com"),
    );
    expect(result).toMatchObject({
      decision: "allow",
      reasons: [],
      allowed: {
        kind: "user_id",
        value: "user_1",
        message: "allowed: user id on allow list, added by jane@shop.example on 2026-11-20",
      },
      monitored: [{ rule: "rule_email", action: "block" }],
    });
  });

  it("loses to a block-list entry for the same value", () => {
    const result = evaluate(
      ev({ email: "a@blocked.example" }),
      withList([entry("email_domain", "blocked.example")], ["blocked.example"]),
      eventFeaturesOf("a@blocked.example"),
    );
    expect(result.decision).toBe("block");
    expect(result.allowed).toBeUndefined();
  });

  it("leaves an event no rule fired on as it was, without a reason", () => {
    const result = evaluate(
      ev({ email: "jane@example.com" }),
      withList([entry("user_id", "user_1")]),
      eventFeaturesOf("jane@example.com"),
    );
    expect(result).toEqual({ decision: "allow", score: 0, reasons: [], monitored: [] });
  });
});
