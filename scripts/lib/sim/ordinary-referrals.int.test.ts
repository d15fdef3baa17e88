/**
 * The honest referrers' signups, weeks to months before the hour, played against a real
 * Warden: the run starts that far back, every event is screened, and each referral reaches the
 * server as long after its referrer's signup as the traffic says.
 */
import { describe, expect, it } from "vitest";
import { HOUR } from "./journey.ts";
import { buildTraffic, type MixOptions } from "./mix.ts";
import { configurationsOf, simulate } from "./run.ts";
import type { Warden } from "./warden.ts";
import { wardenLoggingClock } from "./warden-clock-log.ts";

const DAY = 24 * HOUR;
const mix: MixOptions = {
  seed: 5,
  events: 150,
  hours: 1,
  only: ["referral_friends", "influencer_referrals"],
};

describe("honest referrers made months before the hour (embedded)", () => {
  let warden: Warden;
  const times: number[] = [];
  wardenLoggingClock(times, (started) => {
    warden = started;
  });

  it("every event is screened, each referral 8 days or more after its referrer's signup", async () => {
    const traffic = buildTraffic(mix);
    expect(traffic[0]?.at).toBeLessThan(-8 * DAY);
    const [figures] = await simulate(
      warden,
      mix,
      configurationsOf("template_fake_viral_growth_prevention"),
    );
    const screened = figures?.populations.reduce((sum, p) => sum + p.events, 0);
    expect(screened).toBe(traffic.length);
    // One set for the merchant, then one per event: the server's clock at each screening.
    const played = times.slice(1, 1 + traffic.length);
    const signedUp = new Map<string, number>();
    for (const [i, e] of traffic.entries()) {
      const at = played[i] as number;
      if (e.screen.type === "signup" && e.screen.user_id) signedUp.set(e.screen.user_id, at);
      if (e.screen.type === "referral") {
        const referrer = signedUp.get(e.screen.referrer_user_id ?? "");
        expect(at - (referrer ?? at)).toBeGreaterThanOrEqual(8 * DAY);
      }
    }
  }, 120_000);
});
