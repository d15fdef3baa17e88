/** The unseen attack does what its description says, and no world's mix holds it. */
import { describe, expect, it } from "vitest";
import {
  MIN_KEY_INTERVAL_SD_MS,
  MIN_TIME_TO_SUBMIT_MS,
} from "../../../server/engine/rules/entropy.ts";
import { lookupIp } from "../../../server/modules/screening/features/geo.ts";
import { isHostingAsn } from "../../../server/modules/screening/features/hosting-asns.ts";
import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import { HOUR, type SimEvent } from "./journey.ts";
import { buildTraffic } from "./mix.ts";
import { CONSUMER_VPN } from "./networks.ts";
import { rng } from "./rng.ts";
import { blockOf, relayPromoFarm, VPN_EXITS, vpnExit } from "./unseen-attack.ts";
import { WORLD_NAMES } from "./worlds.ts";

const groups = Array.from({ length: 30 }, (_, n) => {
  const r = rng(33);
  return relayPromoFarm.group(r, n, r.next() * HOUR * 0.9, HOUR).sort((a, b) => a.at - b.at);
});
const ofType = (events: SimEvent[], type: string) => events.filter((e) => e.screen.type === type);
const distinct = <T>(values: T[]) => new Set(values).size;

describe("relay_promo_farm", () => {
  it.each(
    VPN_EXITS.flatMap((net) => net.blocks.map((block) => [block, net.name, net.asn] as const)),
  )("VPN exit block %s is %s (AS%i), on Warden's hosting list, every /24", (block, _name, asn) => {
    const { prefix, from, to } = blockOf(block);
    for (let c = from; c <= to; c++) {
      const ip = `${prefix}.${c}.${1 + ((c * 37) % 254)}`;
      expect(lookupIp(ip), ip).toMatchObject({ asn, hosting: true });
    }
    expect(isHostingAsn(asn)).toBe(true);
  });

  it("uses none of the exits consumer_vpn's people use", () => {
    const theirs = new Set(CONSUMER_VPN.map((ip) => lookupIp(ip).asn));
    const r = rng(5);
    for (let i = 0; i < 400; i++) expect(theirs.has(lookupIp(vpnExit(r)).asn)).toBe(false);
  });

  it("spreads its exits over every network it names", () => {
    const r = rng(5);
    const asns = new Set(Array.from({ length: 400 }, () => lookupIp(vpnExit(r)).asn));
    expect(asns.size).toBe(VPN_EXITS.length);
  });

  it.each(groups.map((g, n) => [n, g] as const))(
    "group %i: each account a new alias, exit, device and user, then WELCOME20 after its signup",
    (_n, events) => {
      const signups = ofType(events, "signup");
      const promos = ofType(events, "promo_redemption");
      expect(signups.length).toBeGreaterThanOrEqual(6);
      expect(promos.length).toBe(signups.length);
      for (const key of ["email", "ip", "user_id"] as const)
        expect(distinct(signups.map((e) => e.screen[key])), key).toBe(signups.length);
      expect(distinct(signups.map((e) => e.collect?.device_id))).toBe(signups.length);
      for (const promo of promos) {
        const signup = signups.find((s) => s.screen.user_id === promo.screen.user_id);
        expect(promo.screen.promo_code).toBe("WELCOME20");
        expect(promo.at - (signup?.at ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(40_000);
        expect(promo.payoff ?? relayPromoFarm.payoff?.includes("promo_redemption")).toBe(true);
      }
      // One relay service per operator, whose aliases are never disposable nor random-looking.
      const domains = new Set(signups.map((e) => e.screen.email?.split("@")[1]));
      expect(domains.size).toBe(1);
      for (const domain of domains) expect(RELAY_EMAIL_DOMAINS.has(domain ?? "")).toBe(true);
    },
  );

  it("types its forms at an even cadence the rules let through: key intervals varying by 6-14 ms, not fast", () => {
    const forms = groups.flat().filter((e) => e.screen.type !== "request");
    expect(forms.length).toBeGreaterThan(100);
    for (const e of forms) {
      const b = e.collect?.behavior;
      expect(b?.key_interval_sd_ms).toBeGreaterThan(MIN_KEY_INTERVAL_SD_MS);
      expect(b?.key_interval_sd_ms).toBeLessThanOrEqual(14);
      expect(b?.key_events).toBeGreaterThanOrEqual(20);
      expect(b?.time_to_submit_ms).toBeGreaterThan(MIN_TIME_TO_SUBMIT_MS);
      expect(e.collect?.webdriver).toBe(false);
    }
  });

  it.each(WORLD_NAMES)("is in no event of the %s world's mix", (world) => {
    for (const seed of [22, 4242]) {
      const traffic = buildTraffic({ world, seed, events: 2500, hours: 1 });
      expect(traffic.some((e) => e.population === relayPromoFarm.name)).toBe(false);
    }
  });

  it("joins the mix when given a weight, without changing the other populations' draws", () => {
    const traffic = buildTraffic({
      seed: 22,
      events: 2500,
      hours: 1,
      shares: { relay_promo_farm: 12 },
    });
    const mine = traffic.filter((e) => e.population === relayPromoFarm.name);
    expect(mine.length / traffic.length).toBeGreaterThan(0.015);
    expect(mine.length / traffic.length).toBeLessThan(0.03);
    const plain = buildTraffic({ seed: 22, events: 2500, hours: 1 });
    const home = (t: SimEvent[]) => t.filter((e) => e.population === "home_broadband");
    expect(home(traffic)).toEqual(home(plain));
  });
});
