/**
 * Ordinary people by what they do: relay and aliased emails, a launch code's burst, returning
 * customers, typos and double clicks, password managers, keyboards, wrong clocks, blocked
 * scripts and old browsers. Naive rules on emails, velocity and behaviour trip on them.
 */
import { BROWSERS } from "../end-users.ts";
import { browsing, eventOf, MINUTE } from "./journey.ts";
import { CGNAT, PRIVATE_RELAY } from "./networks.ts";
import { homePerson, LAUNCH_CODE, newcomer, single, single2 } from "./ordinary-person.ts";
import type { Population } from "./population.ts";
import { card, MOBILE_BROWSERS, nameOf, OLD_BROWSERS } from "./world.ts";

const RELAYS = [
  "privaterelay.appleid.com",
  "mozmail.com",
  "duck.com",
  "simplelogin.com",
  "aleeas.com",
];
export const privacyRelay = single(
  "privacy_relay_email",
  5,
  "Hide My Email, Firefox Relay, DuckDuckGo, SimpleLogin: random-looking relay addresses (Private Relay IPs for some)",
  (pop, r, id) => {
    const domain = r.pick(RELAYS);
    const local =
      domain === "privaterelay.appleid.com"
        ? `${r.hex(10).replace(/[0-9]/g, (d) => "kmpqrstvwx"[Number(d)] ?? "k")}`
        : domain === "duck.com"
          ? `${r.pick(["quick", "brave", "amber", "lucky", "swift"])}-${r.pick(["otter", "fox", "heron", "maple"])}-${r.pick(["river", "stone", "cloud"])}`
          : `${r.hex(8)}`;
    return homePerson(pop, r, id, {
      email: `${local}@${domain}`,
      ...(domain === "privaterelay.appleid.com" && r.chance(0.6)
        ? { ip: PRIVATE_RELAY(r), ua: BROWSERS[1] as string }
        : {}),
    });
  },
);

export const plusAndDots = single(
  "plus_and_dots",
  4,
  "one account each, written with Gmail dots or +tags (name+shop@gmail.com)",
  (pop, r, id) => {
    const { first, last } = nameOf(r, 0);
    const email = r.chance(0.5)
      ? `${first}.${last}+shop@gmail.com`
      : `${first.split("").join(".")}${last}@gmail.com`;
    return homePerson(pop, r, id, { email });
  },
);

export const launchPromo: Population = {
  name: "launch_promo",
  attack: false,
  share: 14,
  about: `honest customers redeeming ${LAUNCH_CODE}, posted on social media: a burst of hundreds an hour`,
  group(r, n, _start, span) {
    // The post goes out a fifth into the window; most people come within the next 20 minutes.
    const at = span * 0.2 + Math.abs(r.next() + r.next() + r.next() - 1.5) * 15 * MINUTE;
    const onPhone = r.chance(0.35);
    const carrier = r.pick(CGNAT);
    const actor = homePerson(
      this,
      r,
      String(n),
      onPhone
        ? {
            ip: r.pick(carrier.addresses),
            zone: r.pick(carrier.network.zones),
            ua: r.pick(MOBILE_BROWSERS),
          }
        : {},
    );
    return newcomer(r, actor, at, { trial: 0.1, promo: 1, code: LAUNCH_CODE, checkout: 0.6 });
  },
};

export const returning: Population = {
  name: "returning_customer",
  attack: false,
  share: 8,
  about: "existing customers: logins, browsing, repeat checkouts with their own card",
  group(r, n, start) {
    const actor = homePerson(this, r, String(n), { card: card(r) });
    const events = [
      eventOf(r, actor, "login", start),
      ...browsing(r, actor, start, start + 20 * MINUTE, r.int(2, 8)),
    ];
    if (r.chance(0.5))
      events.push(
        eventOf(r, actor, "checkout", start + r.int(5, 25) * MINUTE, {
          amount: r.int(9, 99) * 100,
          currency: "usd",
        }),
      );
    if (r.chance(0.2)) events.push(eventOf(r, actor, "login", start + r.int(30, 55) * MINUTE));
    return events;
  },
};

export const retryTypo: Population = {
  name: "retry_typo",
  attack: false,
  share: 3,
  about: "people who mistype their email and sign up again, or press start trial twice",
  group(r, n, start) {
    const actor = homePerson(this, r, String(n));
    const typo = {
      ...actor,
      email: actor.email
        .replace("@gmail.com", "@gmial.com")
        .replace("@yahoo.com", "@yaho.com")
        .replace(/^(\w)/, "$1$1"),
    };
    const events = [
      eventOf(r, typo, "signup", start),
      eventOf(r, actor, "signup", start + r.int(1, 4) * MINUTE),
    ];
    const trial = start + r.int(5, 9) * MINUTE;
    events.push(
      eventOf(r, actor, "trial_start", trial),
      eventOf(r, actor, "trial_start", trial + r.int(2, 30) * 1000),
    );
    if (r.chance(0.4))
      events.push(
        eventOf(r, actor, "checkout", trial + 5 * MINUTE, { amount: 1900, currency: "usd" }),
        eventOf(r, actor, "checkout", trial + 5 * MINUTE + 20_000, {
          amount: 1900,
          currency: "usd",
        }),
      );
    return events;
  },
};

export const passwordManager = single2(
  "password_manager",
  4,
  "password managers and paste: forms filled in about a second, few key presses",
  () => ({ typing: "autofill" }),
);
export const keyboardOnly = single2(
  "keyboard_only",
  2,
  "screen-reader and keyboard-only users: no pointer events, slow",
  () => ({ typing: "keyboard_only" }),
);
export const clockSkew = single2(
  "clock_skew_utc",
  2,
  "browsers reporting UTC (clock set wrong, Firefox resistFingerprinting)",
  (r) => ({ zone: r.pick(["UTC", "Etc/UTC", "Etc/GMT"]) }),
);
export const noCollector = single2(
  "no_collector",
  3,
  "warden.js blocked by an extension: no device, time zone or behaviour",
  () => ({ collector: false }),
);
export const oldBrowser: Population = single(
  "old_browser",
  2,
  "old browsers (IE 11, Chrome 49 on XP, iOS 9): collector without behaviour",
  (pop, r, id) => homePerson(pop, r, id, { ua: r.pick(OLD_BROWSERS), typing: "none" }),
);
