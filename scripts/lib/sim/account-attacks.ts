/**
 * Attacks that make accounts for what a new account gets (a trial, a first-order code, a
 * referral credit), with the evasions real ones use: rotated and fresh email domains, Gmail
 * aliases, device resets, residential proxies and mobile data, sleep jitter.
 */

import { fakeActor, LISTED_DISPOSABLE, residentialProxy, run } from "./attacker.ts";
import { browsing, eventOf, MINUTE } from "./journey.ts";
import { CGNAT, DATACENTER } from "./networks.ts";
import { WELCOME_CODE } from "./ordinary-person.ts";
import type { Population } from "./population.ts";
import { card, deviceId, MOBILE_BROWSERS, nameOf } from "./world.ts";

export const disposableFarm: Population = {
  name: "disposable_farm",
  payoff: ["signup", "trial_start"],
  attack: true,
  share: 14,
  about:
    "signups and trials with throwaway inboxes: listed domains rotated, and fresh domains on no list",
  targetedBy: ["template_one_human_one_trial", "template_disposable_email_throttle"],
  group(r, n, start) {
    const fresh = Array.from(
      { length: 3 },
      () =>
        `${r.pick(["inbox", "mail", "post", "box"])}${r.hex(4)}.${r.pick(["xyz", "top", "site", "online"])}`,
    );
    let device = deviceId(r);
    return run(r.int(8, 16), start, [40_000, 3 * MINUTE], r, (i, at) => {
      if (i % 3 === 0) device = deviceId(r);
      const domain = r.chance(0.6) ? r.pick(LISTED_DISPOSABLE) : r.pick(fresh);
      const actor = fakeActor(this, r, `${n}_${i}`, {
        email: `${nameOf(r, i).first}${r.int(10, 9999)}@${domain}`,
        device,
        ...(r.chance(0.3) ? { ip: DATACENTER(r) } : {}),
      });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "trial_start", at + r.int(20, 90) * 1000),
      ];
    });
  },
};

export const trialFarm: Population = {
  name: "trial_farm",
  payoff: ["trial_start"],
  attack: true,
  share: 16,
  about:
    "careful trial farming: device reset and a new residential proxy per account, Gmail aliases or new inboxes, minutes apart",
  targetedBy: ["template_one_human_one_trial"],
  group(r, n, start) {
    const inbox = nameOf(r, n, "gmail.com");
    const [local = "x"] = inbox.email.split("@");
    return run(r.int(6, 12), start, [3 * MINUTE, 8 * MINUTE], r, (i, at) => {
      const email = r.chance(0.5)
        ? r.chance(0.5)
          ? `${local}+t${i}@gmail.com`
          : `${`${local.replace(".", "")}`.split("").join(i % 2 ? "." : "")}@gmail.com`
        : nameOf(r, i, r.pick(["outlook.com", "yahoo.com", "proton.me"])).email;
      const actor = fakeActor(this, r, `${n}_${i}`, { email, typing: "human" });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "trial_start", at + r.int(1, 3) * MINUTE),
      ];
    });
  },
};

export const promoStuffing: Population = {
  name: "promo_stuffing",
  payoff: ["promo_redemption"],
  attack: true,
  share: 12,
  about: `one person redeeming the first-order code ${WELCOME_CODE} again and again with new accounts`,
  group(r, n, start) {
    const home = residentialProxy(r);
    const cards = [card(r), card(r)];
    let device = deviceId(r);
    return run(r.int(6, 14), start, [MINUTE, 5 * MINUTE], r, (i, at) => {
      if (r.chance(0.3)) device = deviceId(r);
      const actor = fakeActor(this, r, `${n}_${i}`, {
        device,
        card: r.chance(0.6) ? r.pick(cards) : card(r),
        ...(r.chance(0.5) ? { ip: home.ip, zone: home.zone } : {}),
        email: r.chance(0.5) ? `stuff${n}+${i}@gmail.com` : nameOf(r, i).email,
      });
      return [
        eventOf(r, actor, "signup", at),
        eventOf(r, actor, "promo_redemption", at + r.int(30, 120) * 1000, {
          promo_code: WELCOME_CODE,
        }),
      ];
    });
  },
};

export const accountFarm: Population = {
  name: "account_farm_jitter",
  payoff: ["signup"],
  attack: true,
  share: 12,
  about:
    "a few phones on mobile data making account after account, with 2-9 minutes of random sleep",
  targetedBy: ["template_account_farm_shield"],
  group(r, n, start) {
    const phones = [deviceId(r), deviceId(r)];
    const carrier = r.pick(CGNAT);
    return run(r.int(10, 20), start, [2 * MINUTE, 9 * MINUTE], r, (i, at) => {
      const actor = fakeActor(this, r, `${n}_${i}`, {
        device: r.pick(phones),
        ip: r.pick(carrier.addresses),
        zone: r.pick(carrier.network.zones),
        ua: r.pick(MOBILE_BROWSERS),
        typing: "human",
      });
      return [eventOf(r, actor, "signup", at), ...browsing(r, actor, at, at + MINUTE, 1)];
    });
  },
};

export const referralRing: Population = {
  name: "referral_ring",
  payoff: ["referral"],
  attack: true,
  share: 8,
  about:
    "a ring of fake accounts referring each other for credit, on two devices and rotating proxies",
  targetedBy: ["template_fake_viral_growth_prevention"],
  group(r, n, start) {
    const devices = [deviceId(r), deviceId(r)];
    const members: string[] = [`u_${this.name}_${n}_root`];
    const root = fakeActor(this, r, `${n}_root`, {
      userId: members[0] as string,
      device: devices[0] as string,
    });
    const events = [eventOf(r, root, "signup", start - 30 * MINUTE)];
    events.push(
      ...run(r.int(6, 12), start, [MINUTE, 6 * MINUTE], r, (i, at) => {
        const referrer = r.pick(members);
        const actor = fakeActor(this, r, `${n}_${i}`, {
          device: r.chance(0.6) ? r.pick(devices) : deviceId(r),
        });
        members.push(actor.userId);
        return [
          eventOf(r, actor, "signup", at),
          eventOf(r, actor, "referral", at + 30_000, {
            referrer_user_id: referrer,
            referral_code: `ref_${referrer}`,
          }),
        ];
      }),
    );
    return events;
  },
};
