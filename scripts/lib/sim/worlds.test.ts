/** The worlds are the same populations in other proportions, and --world picks one. */
import { describe, expect, it } from "vitest";
import { buildTraffic, POPULATIONS } from "./mix.ts";
import { WORLD_NAMES, WORLDS, worldOf } from "./worlds.ts";

const share = (world: string, population: string) => {
  const events = buildTraffic({ world, seed: 4242, events: 3000, hours: 1 });
  return events.filter((e) => e.population === population).length / events.length;
};

describe("worlds", () => {
  it.each(WORLD_NAMES)("%s names only populations the simulator has", (name) => {
    const known = new Set(POPULATIONS.map((p) => p.name));
    expect(Object.keys(WORLDS[name].shares).filter((p) => !known.has(p))).toEqual([]);
  });

  it.each([
    ["household_shared", "more"],
    ["traveller", "more"],
    ["mobile_cgnat", "more"],
    ["card_farm", "more"],
    ["aged_referral_ring", "more"],
    ["headless_plain", "fewer"],
    ["launch_promo", "fewer"],
  ] as const)("the second world has %s events: %s than the default", (population, direction) => {
    const [second, base] = [share("second", population), share("default", population)];
    if (direction === "more") expect(second).toBeGreaterThan(base);
    else expect(second).toBeLessThan(base);
  });

  it("classic is the default mix without the careful attacks and honest referrals, event for event", () => {
    const added = new Set([
      "card_farm",
      "aged_referral_ring",
      "hosting_burst",
      "referral_friends",
      "influencer_referrals",
    ]);
    const classic = buildTraffic({ world: "classic", seed: 7, events: 300, hours: 1 });
    expect(classic.some((e) => added.has(e.population))).toBe(false);
    const zeroed = Object.fromEntries([...added].map((name) => [name, 0]));
    expect(buildTraffic({ seed: 7, events: 300, hours: 1, shares: zeroed })).toEqual(classic);
  });

  it.each([
    ["default", "company_team"],
    ["default", "vpn_crowd"],
    ["default", "odd_handle"],
    ["second", "company_team"],
    ["second", "vpn_crowd"],
    ["second", "odd_handle"],
    ["classic", "company_team"],
  ])("the %s world has the crowds that look like farms: %s", (world, population) => {
    expect(share(world, population)).toBeGreaterThan(0.01);
  });

  it.each([
    ["default", "referral_friends"],
    ["default", "influencer_referrals"],
    ["second", "referral_friends"],
    ["second", "influencer_referrals"],
  ])("the %s world has honest referrals: %s", (world, population) => {
    expect(share(world, population)).toBeGreaterThan(0.01);
  });

  it("an unknown world is an error that lists the worlds", () => {
    expect(() => worldOf("third")).toThrow(
      /third is not a world \(default, classic, second, or random-<k> for k = 1, 2, \.\.\.\)/,
    );
    expect(() => buildTraffic({ world: "third", seed: 1, events: 10, hours: 1 })).toThrow(/third/);
  });
});
