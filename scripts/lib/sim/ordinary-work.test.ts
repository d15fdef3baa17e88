/**
 * The honest crowds that look like farms are what they claim: a company's team is one new
 * domain of distinct people on distinct devices and networks, a VPN crowd is one hosting ASN
 * (as Warden's own geo data places it), odd handles look random to Warden's own measure.
 */
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { describe, expect, it } from "vitest";
import { emailRandomness } from "../../../server/modules/screening/features/entropy.ts";
import { lookupIp } from "../../../server/modules/screening/features/geo.ts";
import { HOUR, type SimEvent } from "./journey.ts";
import { CGNAT, HOME, REMOTE_HOME } from "./networks.ts";
import { companyTeam, oddHandle, vpnCrowd } from "./ordinary-work.ts";
import type { Params, Population } from "./population.ts";
import { rng } from "./rng.ts";

/** Twenty groups of `pop`, each its signups (one a person). */
const groupsOf = (pop: Population, params?: Params) => {
  const r = rng(31);
  return Array.from({ length: 20 }, (_, n) =>
    pop.group(r, n, 0, HOUR, params).filter((e) => e.screen.type === "signup"),
  );
};
const domainOf = (e: SimEvent) => e.screen.email?.split("@")[1] ?? "";
/** The /24 of an IPv4 address, the /48 of an IPv6 one: one home line or one office. */
const subnetOf = (ip: string) =>
  ip.includes(":") ? ip.split(":").slice(0, 3).join(":") : ip.split(".").slice(0, 3).join(".");
const distinct = <T>(list: T[]) => new Set(list).size;
const COUNTRY_OF_ZONE = new Map(
  [...HOME, ...REMOTE_HOME, ...CGNAT.map((c) => c.network)].flatMap((net) =>
    net.zones.map((zone) => [zone, net.country] as const),
  ),
);

describe("company_team", () => {
  const groups = groupsOf(companyTeam);

  it("each team is one domain of its own, on no disposable list, with distinct inboxes", () => {
    const disposable = disposableEmailBlocklistSet();
    const domains = groups.map((signups) => new Set(signups.map(domainOf)));
    for (const d of domains) expect(d.size).toBe(1);
    const all = domains.map((d) => [...d][0] as string);
    expect(distinct(all)).toBeGreaterThanOrEqual(18);
    expect(all.filter((d) => disposable.has(d))).toEqual([]);
    for (const signups of groups)
      expect(distinct(signups.map((e) => e.screen.email))).toBe(signups.length);
  });

  it("writes human local parts in one convention per team, a few with a +alias", () => {
    const locals = groups.flat().map((e) => e.screen.email?.split("@")[0] ?? "");
    for (const local of locals) expect(local).toMatch(/^[a-z]+(\.[a-z]+)?(\+[a-z]+)?$/);
    const aliased = locals.filter((l) => l.includes("+")).length / locals.length;
    expect(aliased).toBeGreaterThan(0.02);
    expect(aliased).toBeLessThan(0.2);
  });

  it("gives every person a device of their own, and most a network of their own", () => {
    for (const signups of groups) {
      expect(distinct(signups.map((e) => e.collect?.device_id))).toBe(signups.length);
    }
    const people = groups.flat().length;
    const own = groups
      .map((signups) => distinct(signups.map((e) => subnetOf(e.screen.ip ?? ""))))
      .reduce((a, b) => a + b, 0);
    expect(own / people).toBeGreaterThan(0.6);
  });

  it("spreads a team over countries by default, and keeps it in one country when asked", () => {
    // By the time zone each person's browser reports: the geo data places a few home
    // addresses abroad (126.242.x of SoftBank's range is in the US by its data).
    const countries = (signups: SimEvent[]) =>
      distinct(signups.map((e) => COUNTRY_OF_ZONE.get(e.collect?.timezone ?? "")));
    expect(groups.filter((signups) => countries(signups) >= 2).length).toBeGreaterThan(14);
    const oneCountry = groupsOf(companyTeam, { countries: 1, phone: 0, office: 0 });
    for (const signups of oneCountry) expect(countries(signups)).toBe(1);
  });

  it("reads the world's parameters: size, and all from the office when office is 1", () => {
    const sized = groupsOf(companyTeam, { size_min: 30, size_max: 30 });
    for (const signups of sized) expect(signups).toHaveLength(30);
    for (const signups of groupsOf(companyTeam, { office: 1 }))
      expect(distinct(signups.map((e) => e.screen.ip))).toBe(1);
  });
});

describe("vpn_crowd", () => {
  const groups = groupsOf(vpnCrowd);

  it("leaves through many /24s of one hosting ASN per group, as Warden's geo data places them", () => {
    for (const signups of groups) {
      const placed = signups.map((e) => lookupIp(e.screen.ip ?? ""));
      for (const at of placed) expect(at.hosting).toBe(true);
      expect(distinct(placed.map((at) => at.asn))).toBe(1);
      if (signups.length >= 6)
        expect(distinct(signups.map((e) => subnetOf(e.screen.ip ?? "")))).toBeGreaterThan(3);
    }
  });

  it("is distinct people typing on their own devices, at common providers", () => {
    for (const signups of groups) {
      expect(distinct(signups.map((e) => e.collect?.device_id))).toBe(signups.length);
      for (const e of signups) {
        expect(e.collect?.behavior?.time_to_submit_ms).toBeGreaterThanOrEqual(6_000);
        expect(domainOf(e)).toMatch(/^(gmail|yahoo|outlook|hotmail|icloud|proton|gmx|orange)\./);
      }
    }
  });

  it("takes its group size from the world", () => {
    for (const signups of groupsOf(vpnCrowd, { size_min: 25, size_max: 25 }))
      expect(signups).toHaveLength(25);
  });
});

describe("odd_handle", () => {
  it("has local parts most of which Warden's own measure calls random, at common providers", () => {
    const signups = groupsOf(oddHandle).flat();
    const random = signups.filter((e) => emailRandomness(e.screen.email ?? "").random).length;
    expect(random / signups.length).toBeGreaterThan(0.5);
    for (const e of signups)
      expect(domainOf(e)).toMatch(/^(gmail|yahoo|outlook|hotmail|icloud|proton|gmx)\./);
  });
});
