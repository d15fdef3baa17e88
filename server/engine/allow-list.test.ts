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
const geo = (country: string) => ({ country, asn: null, hosting: false });
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
        addedBy: "jane@shop.example",
        addedAt: "2026-11-20T09:30:00.000Z",
        message: "allowed: user id on allow list, added by jane@shop.example on 2026-11-20",
        rules: ["rule_email"],
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

  /** One entry of each kind that this event (or charge) carries. */
  const EVERY_KIND: AllowListEntry[] = [
    entry("user_id", "user_1"),
    entry("email", "x@spam.example"),
    entry("email_domain", "spam.example"),
    entry("ip_cidr", "203.0.113.0/24"),
    entry("device", "dev_1"),
    entry("card_fingerprint", "fp_1"),
  ];
  const blockedCountry = (list: AllowListEntry[]) => ({
    ...policy({ rule_email: true }, { countries: ["NG"] }),
    allowList: list,
  });
  const blockedProvider = (list: AllowListEntry[]) => ({
    ...policy({ rule_email: true }, { email_providers: ["spam.example"] }),
    allowList: list,
  });
  const fromNigeria = { ...eventFeaturesOf("x@spam.example"), geo: geo("NG") };

  it.each(
    EVERY_KIND.flatMap((listed) => [
      {
        block: "a blocked country",
        listed,
        policy: blockedCountry([listed]),
        rule: "rule_country_blocked",
      },
      {
        block: "a blocked email provider",
        listed,
        policy: blockedProvider([listed]),
        rule: "rule_email",
      },
    ]),
  )("$block beats a $listed.kind entry", ({ listed, policy: withBlock, rule }) => {
    const subject = ev({ email: "x@spam.example", cardFingerprint: "fp_1" });
    const result = evaluate(subject, withBlock, fromNigeria);
    expect(result.decision, listed.kind).toBe("block");
    expect(result.allowed).toBeUndefined();
    expect(result.reasons.map((reason) => reason.rule)).toContain(rule);
  });

  it.each(EVERY_KIND)(
    "a $kind entry still beats what is not a block list (disposable email)",
    (listed) => {
      const subject = ev({ email: "x@mailinator.com", cardFingerprint: "fp_1" });
      const list =
        listed.kind === "email" || listed.kind === "email_domain"
          ? [entry(listed.kind, listed.kind === "email" ? "x@mailinator.com" : "mailinator.com")]
          : [listed];
      const result = evaluate(subject, withList(list), {
        ...eventFeaturesOf("x@mailinator.com"),
        geo: geo("NG"),
      });
      expect(result).toMatchObject({ decision: "allow", allowed: { kind: listed.kind } });
    },
  );

  it("a blocked card country beats a card entry on a charge", () => {
    const result = evaluate(
      charge({ cardCountry: "NG", cardFingerprint: "fp_1" }),
      blockedCountry([entry("card_fingerprint", "fp_1")]),
      disposable,
    );
    expect(result.decision).toBe("block");
    expect(result.allowed).toBeUndefined();
  });

  it("a blocked country in monitor mode is no hard no: the entry beats the live rules", () => {
    const monitored = {
      ...policy(
        { rule_email: true },
        { countries: ["NG"] },
        { rule_country_blocked: { mode: "monitor" } },
      ),
      allowList: [entry("user_id", "user_1")],
    };
    const result = evaluate(ev(), monitored, {
      ...eventFeaturesOf("x@mailinator.com"),
      geo: geo("NG"),
    });
    expect(result).toMatchObject({
      decision: "allow",
      allowed: { kind: "user_id", rules: ["rule_email"] },
    });
  });

  it.each([
    { name: "the backend's device id matches", fromBrowser: false, decision: "allow" },
    {
      name: "a device id the browser asserted never matches",
      fromBrowser: true,
      decision: "block",
    },
  ])("$name", ({ fromBrowser, decision }) => {
    const result = evaluate(
      ev({ deviceId: "dev_1", deviceFromBrowser: fromBrowser }),
      withList([entry("device", "dev_1")]),
      eventFeaturesOf("x@mailinator.com"),
    );
    expect(result.decision).toBe(decision);
  });

  it.each(["0.0.0.0/0", "::/0", "::ffff:0:0/96", "10.0.0.0/8"])(
    "a range wider than the limit stored before it (%s) matches nothing",
    (value) => {
      const result = evaluate(
        ev({ ip: "10.1.2.3" }),
        withList([entry("ip_cidr", value)]),
        eventFeaturesOf("x@mailinator.com"),
      );
      expect(result.decision).toBe("block");
    },
  );

  it("leaves an event no rule fired on as it was, without a reason", () => {
    const result = evaluate(
      ev({ email: "jane@example.com" }),
      withList([entry("user_id", "user_1")]),
      eventFeaturesOf("jane@example.com"),
    );
    expect(result).toEqual({ decision: "allow", score: null, reasons: [], monitored: [] });
  });
});
