/** The simulated addresses are real ones: the offline geo data places each where the simulator says. */
import { describe, expect, it } from "vitest";
import { lookupIp } from "../../../server/modules/screening/features/geo.ts";
import {
  CAMPUSES,
  CGNAT,
  CONSUMER_VPN,
  CORPORATE_VPN,
  DATACENTER,
  HETZNER,
  HOME,
  OFFICES,
  PRIVATE_RELAY,
  REMOTE_HOME,
  VPN_PROVIDERS,
} from "./networks.ts";
import { rng } from "./rng.ts";

const r = rng(1);
const sample = (make: () => string, n = 20) => Array.from({ length: n }, make);

describe("simulated addresses (offline geo data)", () => {
  it.each([...HOME, ...REMOTE_HOME].map((net) => [net.name, net] as const))(
    "home broadband %s is in its country, not a host",
    (_name, net) => {
      for (const ip of sample(() => net.ip(r))) {
        expect(lookupIp(ip), ip).toMatchObject({ country: net.country, hosting: false });
      }
    },
    20_000,
  );

  it.each([
    ...CGNAT.flatMap((c) =>
      c.addresses.map((ip) => [c.network.name, ip, c.network.country] as const),
    ),
    ...CAMPUSES.flatMap((c) => c.addresses.map((ip) => [c.name, ip, c.country] as const)),
    ...OFFICES.map((o) => [o.name, o.address, o.country] as const),
  ])("%s %s is a consumer or business network in %s", (_name, ip, country) => {
    expect(lookupIp(ip)).toMatchObject({ country, hosting: false });
  });

  it("VPN exits and datacenters are on the hosting list; corporate gateways and Private Relay are not", () => {
    for (const ip of [...CONSUMER_VPN, ...sample(() => DATACENTER(r))]) {
      expect(lookupIp(ip).hosting, ip).toBe(true);
    }
    for (const ip of CORPORATE_VPN)
      expect(lookupIp(ip), ip).toMatchObject({ country: "US", hosting: false });
    // Private Relay's exits are in many countries (the relay picks one near the person).
    for (const ip of sample(() => PRIVATE_RELAY(r))) expect(lookupIp(ip).hosting, ip).toBe(false);
  });

  it("every /24 of the hosting burst's ranges is the one hosting ASN", () => {
    for (const [a, b] of HETZNER.prefixes) {
      for (let c = 0; c < 256; c++) {
        const ip = `${a}.${b}.${c}.${1 + ((c * 37) % 254)}`;
        expect(lookupIp(ip), ip).toMatchObject({ asn: HETZNER.asn, hosting: true });
      }
    }
  });

  it.each(VPN_PROVIDERS.map((p) => [p.name, p] as const))(
    "every /24 of VPN provider %s is its one hosting ASN",
    (_name, provider) => {
      for (const [a, b, lo, hi] of provider.ranges) {
        for (let c = lo; c <= hi; c++) {
          for (const d of [1, 1 + ((c * 37) % 254), 254]) {
            const ip = `${a}.${b}.${c}.${d}`;
            expect(lookupIp(ip), ip).toMatchObject({ asn: provider.asn, hosting: true });
          }
        }
      }
    },
  );
});
