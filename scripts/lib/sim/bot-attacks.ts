/**
 * Scripted attacks: stolen cards tested in small charges, headless and stealth browsers
 * crawling and signing up, and leaked addresses signed up from servers without a browser.
 */
import { BROWSERS } from "../end-users.ts";
import { fakeActor, HEADLESS, run, STEALTH_BROWSERS, stealthHeaders } from "./attacker.ts";
import { eventOf, MINUTE } from "./journey.ts";
import { DATACENTER } from "./networks.ts";
import type { Population } from "./population.ts";
import { card, nameOf } from "./world.ts";

export const cardTesting: Population = {
  name: "card_testing",
  payoff: ["checkout"],
  attack: true,
  share: 12,
  about: "stolen cards tried in small charges, many cards from one device, seconds apart",
  group(r, n, start) {
    const base = fakeActor(this, r, `${n}`, {
      ...(r.chance(0.5) ? { ip: DATACENTER(r) } : {}),
      typing: "fast",
    });
    return run(r.int(10, 25), start, [4_000, 25_000], r, (i, at) => {
      const actor = {
        ...base,
        card: card(r),
        ...(r.chance(0.4) ? { email: nameOf(r, i).email, userId: `${base.userId}_${i}` } : {}),
      };
      return [eventOf(r, actor, "checkout", at, { amount: r.int(1, 5) * 100, currency: "usd" })];
    });
  },
};

export const headless = (stealth: boolean): Population => ({
  name: stealth ? "headless_stealth" : "headless_plain",
  payoff: ["request", "signup"],
  attack: true,
  share: stealth ? 10 : 8,
  about: stealth
    ? "automation with stealth plugins: a Windows or Mac Chrome's user agent (client hints still saying Linux in 70% of sessions), no webdriver flag, even typing, residential proxies or cloud servers, 20-40 pages a minute"
    : "headless Chrome and scripts: HeadlessChrome or python-requests, webdriver on, datacenter IPs, 90 pages a minute",
  targetedBy: ["template_stealth_scraper_deterrent"],
  group(r, n, start) {
    // The stealth browser's face is drawn apart, so the crawl's other draws stay as they were.
    const face = r.fork(`face:${n}`);
    const actor = fakeActor(
      this,
      r,
      `${n}`,
      stealth
        ? { ...(r.chance(0.5) ? { ip: DATACENTER(r) } : {}), ua: face.pick(STEALTH_BROWSERS) }
        : {
            ip: DATACENTER(r),
            ua: r.chance(0.6) ? HEADLESS : "python-requests/2.32.3",
            webdriver: true,
          },
    );
    const perMinute = stealth ? r.int(20, 40) : 90;
    // One session per identity: the crawl rotates device and address every 15-30 pages, so
    // a population's share holds several bots, not one long crawl.
    const pages = Array.from({ length: r.int(15, 30) }, (_, i) =>
      eventOf(r, actor, "request", start + (i * MINUTE) / perMinute, { device_id: actor.device }),
    );
    const signup = eventOf(r, actor, "signup", start + r.int(10, 60) * 1000);
    // A headless Chromium on a server: its client hints say Linux unless the tool spoofs them.
    if (stealth) signup.collectHeaders = stealthHeaders(face, actor.ua, actor.zone);
    if (signup.collect?.behavior) {
      // A script types: fields filled at a fixed rate (even intervals), no pointer, quick submit.
      signup.collect.behavior = {
        time_to_submit_ms: r.int(250, 1_400),
        pointer_events: stealth ? r.int(0, 2) : 0,
        key_events: stealth ? r.int(20, 40) : 0,
        key_interval_sd_ms: stealth ? r.int(0, 4) : null,
        paste_count: 0,
      };
    }
    return [...pages, signup];
  },
});

export const credentialStuffing: Population = {
  name: "credential_stuffing",
  payoff: ["signup"],
  attack: true,
  share: 8,
  about:
    "signups with leaked real addresses from datacenter IPs, no browser (no collector), seconds apart",
  targetedBy: ["template_fake_viral_growth_prevention", "template_account_farm_shield"],
  group(r, n, start) {
    const ua = r.chance(0.5) ? "python-requests/2.32.3" : (BROWSERS[0] as string);
    return run(r.int(10, 30), start, [2_000, 15_000], r, (i, at) => {
      const actor = fakeActor(this, r, `${n}_${i}`, { ip: DATACENTER(r), ua, collector: false });
      return [eventOf(r, actor, "signup", at)];
    });
  },
};
