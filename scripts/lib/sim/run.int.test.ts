/**
 * Traffic with events before the hour (an aged referral ring's referrers, made the day before)
 * played against a real Warden: the simulated clock never goes back, from one configuration's
 * merchant setup to the next one's traffic, and the referrers' signups are played a day before
 * the referrals that name them.
 */
import { describe, expect, it } from "vitest";
import { HOUR } from "./journey.ts";
import { buildTraffic, type MixOptions } from "./mix.ts";
import { configurationsOf, simulate } from "./run.ts";
import type { Warden } from "./warden.ts";
import { wardenLoggingClock } from "./warden-clock-log.ts";

const mix: MixOptions = { seed: 3, events: 60, hours: 1, only: ["aged_referral_ring"] };

describe("playing events before the hour (embedded)", () => {
  let warden: Warden;
  const times: number[] = [];
  wardenLoggingClock(times, (started) => {
    warden = started;
  });

  it("the clock only moves forward, and the referrers sign up 18 h or more before the first referral", async () => {
    const start = warden.clock.now();
    const figures = await simulate(warden, mix, configurationsOf("rules,all"));
    expect(figures.map((f) => f.name)).toEqual(["all_rules", "all_templates"]);
    expect(times[0]).toBeGreaterThanOrEqual(start);
    expect(times.every((t, i) => i === 0 || (times[i - 1] as number) <= t)).toBe(true);
    const traffic = buildTraffic(mix);
    const early = traffic.filter((e) => e.early).length;
    expect(early).toBeGreaterThan(0);
    // Per configuration: one set for the merchant, then one per event.
    const played = times.slice(1, 1 + traffic.length);
    const firstReferral = traffic.findIndex((e) => e.screen.type === "referral");
    expect(
      (played[firstReferral] as number) - (played[early - 1] as number),
    ).toBeGreaterThanOrEqual(18 * HOUR);
    // Every referral was screened (the server took referrers it met a day before).
    for (const f of figures)
      expect(f.populations.find((p) => p.population === "aged_referral_ring")?.events).toBe(
        traffic.filter((e) => e.screen.type === "referral").length,
      );
  }, 120_000);
});
