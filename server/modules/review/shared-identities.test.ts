import { describe, expect, it } from "vitest";
import type { EventSubject } from "../../engine/types.ts";
import { identitiesOf, ipKeys, normalizeEmail } from "../screening/screening.entry.ts";
import { linkProbes, sharedIdentities, subjectOf } from "./shared-identities.ts";

const KEY = "k".repeat(64);

const stored = {
  userId: "u_1",
  email: "First.Last+promo@gmail.com",
  ip: "2001:db8:85a3::8a2e:370:7334",
  input: { device_id: "dev-1", card_fingerprint: "fp_1", referrer_user_id: "u_ref" },
  signals: null,
};

/** What the screening path stores for the same event (identities.ts). */
const subject: EventSubject = {
  kind: "event",
  type: "referral",
  userId: stored.userId,
  email: stored.email.toLowerCase(),
  ip: stored.ip,
  userAgent: null,
  deviceId: "dev-1",
  timezone: null,
  origin: null,
  referrer: null,
  url: null,
  promoCode: null,
  referralCode: null,
  referrerUserId: "u_ref",
  cardFingerprint: "fp_1",
};
const ids = identitiesOf(
  subject,
  {
    normalizedEmail: normalizeEmail(stored.email),
    ipKey: ipKeys(stored.ip).ip,
    subnetKey: ipKeys(stored.ip).subnet,
    disposable: false,
  },
  KEY,
);

describe("link identities of a stored screening", () => {
  it.each([
    {
      name: "off consumer networks: device, email, card, IP and referrer",
      consumer: false,
      kinds: ["device", "email", "card", "ip", "referrer"],
    },
    {
      name: "on a consumer network: the IP links nobody",
      consumer: true,
      kinds: ["device", "email", "card", "referrer"],
    },
  ] as const)("$name, each as the screening path stored it", ({ consumer, kinds }) => {
    const probes = linkProbes(stored, KEY, () => consumer);
    expect(probes.map((p) => p.kind)).toEqual(kinds.flatMap((kind) => [kind, kind]));
    for (const kind of kinds) {
      expect(probes.filter((p) => p.kind === kind).map((p) => p.value)).toEqual([
        ids.values[kind],
        ids.legacy[kind],
      ]);
    }
  });

  it("asks whether the address is a consumer network's with the address as stored", () => {
    const asked: string[] = [];
    linkProbes(stored, KEY, (address) => {
      asked.push(address);
      return true;
    });
    expect(asked).toEqual([stored.ip]);
  });

  it("falls back to the collector's address and device", () => {
    const probes = linkProbes(
      {
        email: null,
        ip: null,
        input: {},
        signals: { device_id: "dev-1", collect_ip: stored.ip },
      },
      KEY,
      () => false,
    );
    expect(probes.map((p) => p.value)).toEqual([
      ids.values.device,
      ids.legacy.device,
      ids.values.ip,
      ids.legacy.ip,
    ]);
  });

  it.each([
    { name: "the user id", row: { userId: "u_1", email: "x@example.com" }, expected: ids.subject },
    {
      name: "else the normalized email",
      row: { userId: null, email: stored.email },
      expected: ids.values.email,
    },
    { name: "else nobody", row: { userId: null, email: null }, expected: null },
  ])("its own account is $name", ({ row, expected }) => {
    expect(subjectOf(row, KEY)).toBe(expected);
  });

  it("the review queue still compares device, card, email and IP", () => {
    expect(sharedIdentities(stored, KEY).map((s) => s.kind)).toEqual([
      "device",
      "device",
      "card",
      "card",
      "email",
      "email",
      "ip",
      "ip",
    ]);
  });
});
