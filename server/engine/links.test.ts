/** Linked accounts from the subjects answers: one hop, hubs left out, capped, and the cadence. */
import { describe, expect, it } from "vitest";
import type { IdentityKind } from "./counting.ts";
import { HUB_LIMIT, LINK_CAP, linksOf, regularity, type SubjectEntry } from "./links.ts";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const MIN = 60_000;
const entry = (subject: string, minutesAgo: number, bad = false): SubjectEntry => ({
  subject,
  first: NOW - minutesAgo * MIN,
  bad,
});
const answers = (links: Partial<Record<IdentityKind, SubjectEntry[]>>, referrer?: SubjectEntry[]) =>
  new Map([
    ["links", new Map(Object.entries(links) as [IdentityKind, SubjectEntry[]][])],
    ...(referrer ? [["referrer", new Map([["user" as IdentityKind, referrer]])] as const] : []),
  ]);

describe("linksOf", () => {
  it("card_farm: three accounts on one card, this one new: two linked, both first seen this hour", () => {
    const links = linksOf(
      answers({ card: [entry("a", 20), entry("b", 10), entry("me", 0)], email: [entry("me", 1)] }),
      "me",
      NOW,
    );
    expect(links).toMatchObject({
      accounts: 2,
      firstSeenLastHour: 2,
      firstSeenLastDay: 2,
      bad: 0,
      through: [{ kind: "card", accounts: 2 }],
      hubs: [],
      accountFirstSeen: NOW - MIN,
    });
  });

  it("counts an account linked through two kinds once, with both kinds named", () => {
    const links = linksOf(
      answers({ card: [entry("a", 90)], device: [entry("a", 30, true), entry("me", 5)] }),
      "me",
      NOW,
    );
    expect(links?.accounts).toBe(1);
    expect(links?.firstSeenLastHour).toBe(0);
    expect(links?.bad).toBe(1);
    expect(links?.through.map((t) => t.kind)).toEqual(["card", "device"]);
    expect(links?.deviceFirstSeen).toBe(NOW - 30 * MIN);
  });

  it("influencer_referrals / consumer_vpn: accounts linked only through a referrer or a VPN exit are listed, not counted as new", () => {
    const followers = [entry("f1", 5), entry("f2", 4), entry("f3", 3)];
    const links = linksOf(answers({ referrer: followers, ip: [entry("v1", 2)] }), "me", NOW);
    expect(links?.accounts).toBe(4);
    expect(links?.firstSeenLastHour).toBe(0);
    expect(links?.through).toEqual([
      { kind: "referrer", accounts: 3 },
      { kind: "ip", accounts: 1 },
    ]);
  });

  it("mobile_cgnat / office: an identity shared by more than the hub limit links nobody", () => {
    const crowd = Array.from({ length: HUB_LIMIT + 1 }, (_, i) => entry(`p${i}`, i));
    const links = linksOf(answers({ ip: crowd, device: [entry("me", 0)] }), "me", NOW);
    expect(links?.accounts).toBe(0);
    expect(links?.hubs).toEqual([{ kind: "ip", accounts: HUB_LIMIT + 1 }]);
  });

  it("caps the union at the link cap", () => {
    const many = (prefix: string) =>
      Array.from({ length: HUB_LIMIT }, (_, i) => entry(`${prefix}${i}`, i));
    const links = linksOf(
      answers({ card: many("c"), device: many("d"), email: many("e") }),
      "me",
      NOW,
    );
    expect(links?.accounts).toBe(LINK_CAP);
  });

  it("gives the referrer's first sighting", () => {
    const links = linksOf(answers({}, [entry("ref", 30 * 60), entry("ref", 10)]), "me", NOW);
    expect(links?.referrerFirstSeen).toBe(NOW - 30 * 60 * MIN);
  });

  it("is null when nothing was asked", () => {
    expect(linksOf(new Map(), "me", NOW)).toBeNull();
  });
});

describe("regularity", () => {
  it.each([
    { name: "a script sleeping 5 min", gaps: [5, 5, 5, 5], even: true },
    { name: "a farm sleeping 4-6 min", gaps: [4, 6, 5, 4.5, 5.5], even: true },
    { name: "people arriving on their own", gaps: [1, 14, 2, 30, 3], even: false },
  ])("$name → even pace: $even", ({ gaps, even }) => {
    const times = [0];
    for (const gap of gaps) times.push((times.at(-1) as number) + gap * MIN);
    expect((regularity(times) as number) < 0.35).toBe(even);
  });

  it("abstains under four accounts", () => {
    expect(regularity([0, MIN, 2 * MIN])).toBeNull();
  });
});
