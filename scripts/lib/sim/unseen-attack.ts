/**
 * The attack the default weights never saw (`npm run simulate -- --two-hours`): its share is 0,
 * so no world's mix holds it and `npm run fit` never trains on it; the two-hour mode gives it a
 * weight (or `--share relay_promo_farm=12`). It passes every rule, yet leaves traces in the
 * signals the score reads (server/engine/signals.ts), each one on its own also worn by honest
 * people: a VPN exit (hosting_network, like consumer_vpn), a privacy-relay alias (relay_email,
 * like privacy_relay_email), a new account and device (account_new, device_new, like every
 * newcomer), and form fills typed by a script with a little jitter (even_typing at 0.3-0.7:
 * key intervals varying by 6-14 ms, above the 5 ms at which rule_entropy flags them). A
 * merchant's labels can teach the score that this combination is fraud.
 */
import { run, STEALTH_BROWSERS } from "./attacker.ts";
import { browsing, eventOf, MINUTE, type SimEvent } from "./journey.ts";
import { WELCOME_CODE } from "./ordinary-person.ts";
import { actorOf, type Population } from "./population.ts";
import type { Rng } from "./rng.ts";
import { card, deviceId, nameOf } from "./world.ts";

/**
 * Commercial VPN exits: address blocks of hosting networks VPN services rent servers at (each
 * on Warden's hosting list, server/modules/screening/features/hosting-asns.ts), as `a.b` with
 * the third octets they span; unseen-attack.test.ts checks each /24 with the offline geo data.
 * Eight networks drawn alike, so a run's accounts stay near the 5 signups an hour per network
 * that rule_signup_velocity allows; none of them is a network consumer_vpn's people leave through
 * (M247, Datacamp), so this attack's counts do not add to theirs (the point here is the score).
 */
export const VPN_EXITS: readonly { name: string; asn: number; blocks: Block[] }[] = [
  { name: "Leaseweb Netherlands", asn: 60781, blocks: ["85.17.0-255", "95.211.0-255"] },
  { name: "Leaseweb Deutschland", asn: 28753, blocks: ["178.162.192-255", "46.165.192-255"] },
  { name: "WorldStream", asn: 49981, blocks: ["109.236.80-95", "190.2.128-159"] },
  { name: "Hivelocity", asn: 29802, blocks: ["23.111.128-191"] },
  { name: "FranTech / BuyVM", asn: 53667, blocks: ["209.141.32-63", "198.98.48-63"] },
  { name: "Scaleway", asn: 12876, blocks: ["51.15.0-255", "62.210.0-255"] },
  { name: "UpCloud", asn: 202053, blocks: ["94.237.0-126"] },
  { name: "netcup", asn: 197540, blocks: ["89.58.0-63", "46.38.224-255"] },
];

/** A block of /24s: "a.b.c0-c1". */
type Block = `${number}.${number}.${number}-${number}`;

/** A block's first two octets and the range of its third. */
export function blockOf(block: Block): { prefix: string; from: number; to: number } {
  const [prefix, from, to] = block.split(/\.(?=\d+-)|-/) as [string, string, string];
  return { prefix, from: Number(from), to: Number(to) };
}

/** A VPN exit: a network, then a server in it (a new /24, mostly) per connection. */
export function vpnExit(r: Rng): string {
  const { prefix, from, to } = blockOf(r.pick(r.pick(VPN_EXITS).blocks));
  return `${prefix}.${r.int(from, to)}.${r.int(1, 254)}`;
}

/** Relay services that hand out aliases without limit (on Warden's relay list; never disposable). */
export const ALIAS_DOMAINS = [
  "simplelogin.com",
  "aleeas.com",
  "slmail.me",
  "duck.com",
  "mozmail.com",
  "passmail.net",
] as const;

/** An alias as the relay makes it: two words and digits (SimpleLogin's style), or hex. */
function aliasAt(r: Rng, domain: string): string {
  const { first, last } = nameOf(r, 0);
  return r.chance(0.6) ? `${first}.${last}${r.int(10, 999)}@${domain}` : `${r.hex(10)}@${domain}`;
}

/** Where the operator sits; the browser's zone says so (on a VPN exit no time zone is judged). */
const OPERATOR_ZONES = ["Europe/Bucharest", "Europe/Kyiv", "Asia/Manila", "Africa/Lagos"];

/**
 * A form filled by an automation script (an anti-detect browser's RPA): a few scripted clicks,
 * every field typed at a set cadence with a little random jitter, submitted after 3-9 s.
 */
export function scripted(r: Rng, event: SimEvent): SimEvent {
  if (!event.collect) return event;
  return {
    ...event,
    collect: {
      ...event.collect,
      behavior: {
        time_to_submit_ms: r.int(3_000, 9_000),
        pointer_events: r.int(2, 6),
        key_events: r.int(20, 45),
        key_interval_sd_ms: r.int(6, 14),
        paste_count: 0,
      },
    },
  };
}

/**
 * Who: one operator farming the first-order code (WELCOME20) with new accounts, 6-12 a run,
 * 2-4 minutes apart. Payoff: the promo redemption. What it does per account: a new VPN exit,
 * a new relay alias at the operator's relay service, a new device (a fresh anti-detect browser
 * profile claiming Chrome on Windows or a Mac), sometimes a page first, the signup, then the
 * code 40-150 s later, with a new virtual card for 60% of them; forms typed by its script.
 */
export const relayPromoFarm: Population = {
  name: "relay_promo_farm",
  payoff: ["promo_redemption"],
  attack: true,
  share: 0,
  about:
    "promo farm on commercial VPN exits (six hosting networks), a new privacy-relay alias, device and VPN server per account, forms typed by a script at an even cadence (6-14 ms jitter), WELCOME20 redeemed minutes after each signup",
  group(r, n, start) {
    const domain = r.pick(ALIAS_DOMAINS);
    const zone = r.pick(OPERATOR_ZONES);
    return run(r.int(6, 12), start, [2 * MINUTE, 4 * MINUTE], r, (i, at) => {
      const actor = actorOf(this, `${n}_${i}`, {
        userId: `u_${this.name}_${n}_${i}`,
        email: aliasAt(r, domain),
        ip: vpnExit(r),
        zone,
        device: deviceId(r),
        ua: r.pick(STEALTH_BROWSERS),
        card: r.chance(0.6) ? card(r) : undefined,
      });
      const page = r.chance(0.5) ? browsing(r, actor, at - MINUTE, at - 5_000, 1) : [];
      return [
        ...page,
        scripted(r, eventOf(r, actor, "signup", at)),
        scripted(
          r,
          eventOf(r, actor, "promo_redemption", at + r.int(40, 150) * 1000, {
            promo_code: WELCOME_CODE,
          }),
        ),
      ];
    });
  },
};
