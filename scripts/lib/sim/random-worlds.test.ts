/** Random worlds: drawn from their ranges, the same for the same k, and every honest population in some. */
import { describe, expect, it } from "vitest";
import { ATTACKS } from "./attacks.ts";
import { buildTraffic } from "./mix.ts";
import { ORDINARY } from "./populations.ts";
import {
  FACTOR,
  NEARLY_NONE,
  PARAM_RANGES,
  type Range,
  randomWorld,
  SHARE_RANGES,
} from "./random-worlds.ts";
import { describeWorld, worldOf } from "./worlds.ts";

const traffic = (world: string, seed = 5151) =>
  buildTraffic({ world, seed, events: 800, hours: 1 });
const within = (x: number, [lo, hi]: Range) => x >= lo && x <= hi;
const KS = Array.from({ length: 40 }, (_, i) => i + 1);

describe("random worlds", () => {
  it("are the same world and the same traffic for the same k", () => {
    expect(worldOf("random-3")).toEqual(worldOf("random-3"));
    expect(traffic("random-3")).toEqual(traffic("random-3"));
  });

  it("differ between two k, in shares, parameters and traffic", () => {
    const [a, b] = [randomWorld(1), randomWorld(2)];
    expect(a.shares.company_team).not.toBe(b.shares.company_team);
    expect(a.params).not.toEqual(b.params);
    expect(traffic("random-1")).not.toEqual(traffic("random-2"));
  });

  it.each(KS)("random-%i draws every share and parameter within its range", (k) => {
    const world = randomWorld(k);
    for (const pop of [...ORDINARY, ...ATTACKS]) {
      const share = world.shares[pop.name] as number;
      const own = SHARE_RANGES[pop.name];
      if (own && !pop.attack) expect(within(share, own), pop.name).toBe(true);
      else if (pop.share === 0) expect(share, pop.name).toBe(0);
      else {
        const factor = share / pop.share;
        const range = pop.attack ? FACTOR : ([NEARLY_NONE[0], FACTOR[1]] as const);
        expect(within(factor, range), `${pop.name} ×${factor}`).toBe(true);
      }
    }
    for (const [name, ranges] of Object.entries(PARAM_RANGES)) {
      for (const [key, range] of Object.entries(ranges))
        expect(within(world.params?.[name]?.[key] as number, range), `${name}.${key}`).toBe(true);
    }
  });

  it("leave some populations all but absent in some worlds, and no attack a world never had", () => {
    const factors = KS.flatMap((k) =>
      ORDINARY.filter((pop) => !SHARE_RANGES[pop.name]).map(
        (pop) => (randomWorld(k).shares[pop.name] as number) / pop.share,
      ),
    );
    expect(factors.some((f) => f <= NEARLY_NONE[1])).toBe(true);
    expect(factors.some((f) => f >= 2)).toBe(true);
    for (const k of KS) expect(randomWorld(k).shares.relay_promo_farm).toBe(0);
  });

  it("play every ordinary population in some world", () => {
    const seen = new Set(
      [1, 2, 3, 4, 5, 6].flatMap((k) => traffic(`random-${k}`, k).map((e) => e.population)),
    );
    expect(ORDINARY.map((pop) => pop.name).filter((name) => !seen.has(name))).toEqual([]);
  });

  it("pass their parameters to the groups: a company's size and a household's", () => {
    // random-3 draws companies of 5-8 people (30 at most by default), random-2 households of
    // up to 6 (4 by default).
    expect(randomWorld(3).params?.company_team).toMatchObject({ size_min: 5, size_max: 8 });
    expect(randomWorld(2).params?.household_shared).toEqual({ size_max: 6 });
    const sizes = (k: number, population: string) => {
      const events = buildTraffic({
        world: `random-${k}`,
        seed: k,
        events: 3000,
        hours: 1,
        only: [population],
      });
      const groups = new Map<string, number>();
      for (const e of events.filter((e) => e.screen.type === "signup")) {
        const group = e.actor.split(":")[1]?.split("_")[0] as string;
        groups.set(group, (groups.get(group) ?? 0) + 1);
      }
      return [...groups.values()];
    };
    const companies = sizes(3, "company_team");
    expect(companies.length).toBeGreaterThan(10);
    expect(Math.max(...companies)).toBeLessThanOrEqual(8);
    expect(Math.max(...sizes(2, "household_shared"))).toBeGreaterThan(4);
  });

  it("are described for a report: shares per side summing to one, and the drawn parameters", () => {
    const world = describeWorld("random-7");
    for (const attack of [false, true]) {
      const side = world.shares.filter((row) => row.attack === attack);
      expect(side.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(1);
    }
    expect(world.params).toEqual(randomWorld(7).params);
    expect(describeWorld("default").params).toEqual({});
  });

  it.each(["random-0", "random-x", "random--2", "random-1.5"])("%s is not a world", (name) => {
    expect(() => worldOf(name)).toThrow(/is not a world/);
  });
});
