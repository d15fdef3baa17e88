/**
 * The risk score's inputs: every signal Warden reads about an event, measured whether or not a
 * rule's limit is passed (a rule decides on one signal past its limit; the score adds them all
 * up, score.ts). Each is a number, 0 when the signal says nothing, with a sentence for the
 * merchant. Counts are taken as log2(1 + n), capped, so the tenth account on a device does not
 * outweigh everything else. Pure: reads the same subject and features the rules read.
 */
import { RELAY_EMAIL_DOMAINS } from "../../shared/catalog/email-providers.ts";
import { DAY, HOUR, MINUTE } from "./counting.ts";
import { emailDomain, looksLikeAPerson } from "./email-domain.ts";
import { MAILBOX_PROVIDERS, typoOf } from "./email-typo.ts";
import { LINK_WINDOW, regularity } from "./links.ts";
import { requestInconsistency } from "./request-consistency.ts";
import { madeUpElsewhere } from "./rules/email.ts";
import {
  MIN_KEY_INTERVAL_SD_MS,
  MIN_TIME_TO_SUBMIT_MS,
  PERSON_POINTER_EVENTS,
  TYPED_KEYS,
} from "./rules/entropy.ts";
import { throughText } from "./rules/farming.ts";
import { RELAY_NETWORKS } from "./rules/timezone-mismatch.ts";
import type { EventSubject, Features, Policy } from "./types.ts";

/** Every signal the score reads, in the order the weights file lists them. */
export const SIGNAL_KEYS = [
  "account_new",
  "account_young",
  "returning_account",
  "device_new",
  "linked_last_hour",
  "linked_last_day",
  "linked_bad",
  "linked_even_pace",
  "phone_accounts",
  "hosting_network",
  "relay_network",
  "unknown_network",
  "no_browser",
  "webdriver",
  "bot_user_agent",
  "no_input_events",
  "even_typing",
  "fast_submit",
  "request_inconsistent",
  "timezone_mismatch",
  "referrer_mismatch",
  "disposable_email",
  "new_email_domain",
  "email_typo",
  "random_email",
  "relay_email",
  "signups_ip",
  "signups_subnet",
  "signups_network",
  "signups_device",
  "domain_signups",
  "accounts_on_device",
  "accounts_on_card",
  "prior_trials",
  "promo_reused",
  "promo_burst",
  "promo_same_source",
  "referrer_shares",
  "referrals_to_referrer",
  "referrer_young",
  "requests_per_minute",
  "cards_last_hour",
  "refunds",
  "disputes",
] as const;
export type SignalKey = (typeof SIGNAL_KEYS)[number];

/**
 * The kinds of evidence a signal belongs to (decision 030). A block by the score needs points
 * from two families: one kind of evidence alone, however strong, is one assumption about
 * attackers, and honest crowds break any one assumption (a company's team on its new domain, a
 * VPN provider's users on its network). `context` is what every newcomer carries on a new site
 * (a new account, a new device, a domain first seen): it moves a score below review, never
 * toward a block.
 */
export const FAMILIES = ["identity", "network", "email", "device", "behaviour", "history"] as const;
export type Family = (typeof FAMILIES)[number];

export const SIGNAL_FAMILY: Readonly<Record<SignalKey, Family | "context">> = {
  account_new: "context",
  account_young: "context",
  returning_account: "context",
  device_new: "context",
  new_email_domain: "context",
  // Identity reuse and links: one person behind several accounts.
  linked_last_hour: "identity",
  linked_last_day: "identity",
  phone_accounts: "identity",
  signups_device: "identity",
  accounts_on_device: "identity",
  accounts_on_card: "identity",
  prior_trials: "identity",
  promo_reused: "identity",
  referrer_shares: "identity",
  cards_last_hour: "identity",
  // Where the event came from, and whether the browser agrees with it.
  hosting_network: "network",
  relay_network: "network",
  unknown_network: "network",
  signups_ip: "network",
  signups_subnet: "network",
  signups_network: "network",
  timezone_mismatch: "network",
  // The address.
  disposable_email: "email",
  email_typo: "email",
  random_email: "email",
  relay_email: "email",
  domain_signups: "email",
  // The software that sent it.
  no_browser: "device",
  webdriver: "device",
  bot_user_agent: "device",
  request_inconsistent: "device",
  referrer_mismatch: "device",
  // How and how fast it was done.
  no_input_events: "behaviour",
  even_typing: "behaviour",
  fast_submit: "behaviour",
  linked_even_pace: "behaviour",
  requests_per_minute: "behaviour",
  promo_burst: "behaviour",
  promo_same_source: "behaviour",
  referrals_to_referrer: "behaviour",
  // What happened before: labels, blocks, refunds, disputes, a referrer with no past.
  linked_bad: "history",
  refunds: "history",
  disputes: "history",
  referrer_young: "history",
};

/** One signal as measured on one event: its value (0: nothing to say) and what it saw. */
export type Signal = { signal: SignalKey; value: number; detail: string };

/** log2(1 + n), capped: 1 → 1, 3 → 2, 7 → 3, 15 → 4. */
export function logCount(n: number, cap = 4): number {
  return Math.min(cap, Math.log2(1 + Math.max(0, n)));
}

/** Pages a minute people make from one address or device (a household together, reading fast). */
export const PERSON_REQUESTS_PER_MINUTE = 6;

/** An account first seen this long before the event is a returning customer's. */
const RETURNING = 7 * DAY;

const PHONE = /\b(iPhone|Android.+Mobile|Mobile Safari|Windows Phone)\b/;
const ACCOUNT_EVENTS = new Set(["signup", "trial_start", "promo_redemption", "referral"]);

/**
 * Every signal with something to say about this event (value ≠ 0), in SIGNAL_KEYS order.
 * `counts` are those of every rule (rule-counts.ts: the score asks them all).
 */
export function signalsOf(subject: EventSubject, policy: Policy, features: Features): Signal[] {
  const out: Signal[] = [];
  const add = (signal: SignalKey, value: number, detail: string) => {
    if (value !== 0 && Number.isFinite(value)) out.push({ signal, value: round(value), detail });
  };
  const c = (group: string, kind: string) => features.counts?.[group]?.[kind] ?? 0;
  const now = features.now ?? null;
  const links = features.links ?? null;
  const accountEvent = ACCOUNT_EVENTS.has(subject.type);

  // Age of the account and the device, from their first sighting (links.ts). Links look back
  // LINK_WINDOW (30 days): an older account quiet since then reads as not seen.
  if (links && now !== null && (subject.userId || subject.email)) {
    const first = links.accountFirstSeen;
    const age = first === null ? 0 : now - first;
    if (age < 10 * MINUTE) {
      add(
        "account_new",
        1,
        first === null
          ? `account not seen in the last ${LINK_WINDOW / DAY} days`
          : `account ${ageText(age)} old`,
      );
    } else if (age < DAY) {
      add("account_young", 1, `account ${ageText(age)} old`);
    } else if (age >= RETURNING) {
      add(
        "returning_account",
        1,
        `returning account, first seen ${Math.floor(age / DAY)} days ago`,
      );
    }
    const device = links.deviceFirstSeen;
    if (subject.deviceId && (device === null || now - device < 10 * MINUTE)) {
      add(
        "device_new",
        1,
        device === null ? "device never seen before" : `device ${ageText(now - device)} old`,
      );
    }
  }
  if (links && accountEvent) {
    const through = throughText(links);
    add(
      "linked_last_hour",
      logCount(links.firstSeenLastHour),
      `linked to ${links.firstSeenLastHour} account${links.firstSeenLastHour === 1 ? "" : "s"} first seen in the last hour ${through}`,
    );
    const day = links.firstSeenLastDay - links.firstSeenLastHour;
    add(
      "linked_last_day",
      logCount(day),
      `linked to ${day} more first seen in the last day ${through}`,
    );
    add(
      "linked_bad",
      logCount(links.bad, 2),
      `linked to ${links.bad} account${links.bad === 1 ? "" : "s"} blocked, denied or labelled fraud`,
    );
    const pace = regularity(links.recent, 5);
    if (pace !== null && pace < 0.35) {
      add(
        "linked_even_pace",
        1,
        `linked accounts appeared at an even pace (gaps vary by ${Math.round(pace * 100)}%)`,
      );
    }
    const onPhone = links.lastHourThrough.device ?? 0;
    if (subject.type === "signup" && subject.userAgent && PHONE.test(subject.userAgent)) {
      add(
        "phone_accounts",
        logCount(onPhone, 2),
        `${onPhone} other account${onPhone === 1 ? "" : "s"} made on this phone in 1 h`,
      );
    }
  }

  // The network the event came from.
  const geo = features.geo;
  if (subject.ip) {
    if (geo?.hosting) add("hosting_network", 1, `from a hosting provider's network (AS${geo.asn})`);
    else if (geo?.asn != null && RELAY_NETWORKS.has(geo.asn)) {
      add("relay_network", 1, `from ${RELAY_NETWORKS.get(geo.asn)}'s network`);
    } else if (!geo || geo.country === null)
      add("unknown_network", 1, `address ${subject.ip} not placed in any country`);
  }

  // The browser, as the collector saw it.
  const browser = subject.browser ?? null;
  if (!browser && !subject.deviceId) add("no_browser", 1, "no collector token and no device id");
  if (browser?.webdriver)
    add("webdriver", 1, "the browser reports it is automated (navigator.webdriver)");
  // A missing user agent says nothing here: many backends do not forward it (rule_scraping
  // may still review it); a bot's own user agent does.
  if (subject.userAgent && features.bot) add("bot_user_agent", 1, "user agent is a known bot");
  const behavior = browser?.behavior ?? null;
  if (behavior) {
    if (behavior.pointerEvents + behavior.keyEvents === 0) {
      add("no_input_events", 1, "form submitted without a pointer or key event");
    }
    const sd = behavior.keyIntervalSdMs;
    if (behavior.keyEvents >= TYPED_KEYS && sd !== null) {
      add(
        "even_typing",
        Math.max(0, 1 - sd / (4 * MIN_KEY_INTERVAL_SD_MS)),
        `keys typed with intervals varying by ${sd.toFixed(1)} ms`,
      );
    }
    const took = behavior.timeToSubmitMs;
    const byHand = behavior.pasteCount > 0 || behavior.pointerEvents >= PERSON_POINTER_EVENTS;
    if (
      took !== null &&
      took < MIN_TIME_TO_SUBMIT_MS &&
      (behavior.keyEvents >= TYPED_KEYS || !byHand)
    ) {
      add("fast_submit", 1, `form submitted ${Math.round(took)} ms after it was first touched`);
    }
  }
  const inconsistent = browser?.request ? requestInconsistency(browser.request) : null;
  if (inconsistent) add("request_inconsistent", 1, inconsistent.message);
  if (
    subject.timezone &&
    features.timezoneFitsCountry === false &&
    !geo?.hosting &&
    !(geo?.asn != null && RELAY_NETWORKS.has(geo.asn))
  ) {
    add(
      "timezone_mismatch",
      1,
      `browser timezone ${subject.timezone} is not one of ${geo?.country ?? "?"}'s`,
    );
  }
  const page = hostOf(subject.url);
  const origin = hostOf(subject.origin);
  const allowed = new Set((policy.allowedOrigins ?? []).map(hostOf));
  if ((origin && page && origin !== page) || (origin && allowed.size > 0 && !allowed.has(origin))) {
    add("referrer_mismatch", 1, `origin ${origin} is not this site's`);
  }

  // The email.
  const domain = emailDomain(subject.email);
  if (domain) {
    const relay = RELAY_EMAIL_DOMAINS.has(domain);
    if (relay) add("relay_email", 1, `privacy relay address (${domain})`);
    else if (features.disposableDomains.has(domain))
      add("disposable_email", 1, `disposable email domain ${domain}`);
    else if (typoOf(domain))
      add("email_typo", 1, `email domain ${domain} looks like a typo of ${typoOf(domain)}`);
    const counted = !relay && !MAILBOX_PROVIDERS.has(domain);
    if (counted && subject.type === "signup" && features.counts?.domainSignups30Days) {
      const month = c("domainSignups30Days", "domain");
      const hour = c("domainSignupsLastHour", "domain");
      if (month <= hour && !features.disposableDomains.has(domain) && !typoOf(domain)) {
        add("new_email_domain", 1, `${domain} first seen on this site this hour`);
        // Only made-up addresses count (decision 030): a company's people are not a farm.
        const randomness = features.emailRandomness?.random ?? false;
        if (!looksLikeAPerson(subject.email, randomness)) {
          const elsewhere = madeUpElsewhere({
            domainMadeUp: c("domainSignupsLastHour", "domainMadeUp"),
            domainMadeUpNet: c("domainSignupsLastHour", "domainMadeUpNet"),
          });
          add(
            "domain_signups",
            logCount(elsewhere, 3),
            `${elsewhere} other signup${elsewhere === 1 ? "" : "s"} with made-up addresses at ${domain} this hour from other networks`,
          );
        }
      }
    }
    const randomness = features.emailRandomness;
    if (!relay && randomness && randomness.score > 0.5) {
      add(
        "random_email",
        (randomness.score - 0.5) * 2,
        `email's local part looks random (score ${randomness.score.toFixed(2)})`,
      );
    }
  }

  // Velocity and reuse, each identity counted before this event.
  if (subject.type === "signup") {
    const consumer = !!geo && geo.country !== null && !geo.hosting;
    if (subject.ip && !consumer) {
      add(
        "signups_ip",
        logCount(c("signupsLastHour", "ip")),
        `${c("signupsLastHour", "ip")} earlier signups from ${subject.ip} in 1 h`,
      );
      add(
        "signups_subnet",
        logCount(c("signupsLastHour", "subnet")),
        `${c("signupsLastHour", "subnet")} earlier signups from its /24 in 1 h`,
      );
      if (geo?.hosting) {
        add(
          "signups_network",
          logCount(c("signupsLastHour", "network"), 5),
          `${c("signupsLastHour", "network")} earlier signups from AS${geo.asn} in 1 h`,
        );
      }
    }
    if (subject.deviceId) {
      add(
        "signups_device",
        logCount(c("signupsLastHour", "device")),
        `${c("signupsLastHour", "device")} earlier signups from this device in 1 h`,
      );
    }
  }
  if (subject.deviceId) {
    const n = Math.max(c("usersOn", "device"), c("accountsOn", "device"));
    add(
      "accounts_on_device",
      logCount(n),
      `${n} other account${n === 1 ? "" : "s"} on this device`,
    );
  }
  if (subject.cardFingerprint) {
    const n = Math.max(c("usersOnCard", "card"), c("accountsOn", "card"));
    add("accounts_on_card", logCount(n), `${n} other account${n === 1 ? "" : "s"} on this card`);
  }
  if (subject.type === "trial_start") {
    const n = Math.max(
      c("priorTrials", "email"),
      c("priorTrials", "card"),
      c("priorTrials", "device"),
    );
    add(
      "prior_trials",
      logCount(n),
      `${n} earlier trial${n === 1 ? "" : "s"} with this email, card or device`,
    );
  }
  if (subject.type === "promo_redemption") {
    const n = Math.max(
      c("promoRedeemedBy", "email"),
      c("promoRedeemedBy", "device"),
      c("promoRedeemedBy", "card"),
    );
    add(
      "promo_reused",
      logCount(n),
      `code already redeemed ${n} time${n === 1 ? "" : "s"} by this email, device or card`,
    );
    const burst = c("promoCodeLast10Minutes", "promo");
    add("promo_burst", logCount(burst, 6), `${burst} redemptions of this code in 10 min`);
    const same = Math.max(c("promoLastHour", "ip"), c("promoLastHour", "device"));
    add("promo_same_source", logCount(same), `${same} redemptions from this IP or device in 1 h`);
  }
  if (subject.type === "referral" && subject.referrerUserId) {
    const shares = ["card", "email", "device", "ip"].filter((k) => c("referrerShares", k) > 0);
    add(
      "referrer_shares",
      shares.length > 0 ? 1 : 0,
      `shares a ${shares.join(", ")} with the referrer`,
    );
    const n = c("referralsLastHour", "referrer");
    add(
      "referrals_to_referrer",
      logCount(n, 6),
      `${n} earlier referrals naming ${subject.referrerUserId} in 1 h`,
    );
    const first = links?.referrerFirstSeen ?? null;
    if (now !== null && (first === null || now - first < 7 * DAY)) {
      add(
        "referrer_young",
        1,
        first === null
          ? "referrer never seen before"
          : `referrer first seen ${Math.max(1, Math.round((now - first) / HOUR))} h ago`,
      );
    }
  }
  if (subject.type === "request") {
    // Counted past a person's pace: a family browsing on one laptop and one home address makes
    // a few pages a minute (issue 42: 2 a minute scored +19 and blocked households' page views).
    const n = Math.max(c("requestsLastMinute", "ip"), c("requestsLastMinute", "device"));
    add(
      "requests_per_minute",
      logCount(n - PERSON_REQUESTS_PER_MINUTE, 6),
      `${n} requests in the last minute from this IP or device (a person's pace is up to ${PERSON_REQUESTS_PER_MINUTE})`,
    );
  }
  const cards = Math.max(
    c("cardsLastHour", "user"),
    c("cardsLastHour", "email"),
    c("cardsLastHour", "ip"),
    c("cardsLastHour", "device"),
  );
  add(
    "cards_last_hour",
    logCount(cards, 5),
    `${cards} other card${cards === 1 ? "" : "s"} from this user, email, IP or device in 1 h`,
  );
  const history = features.stripeHistory;
  if (history && subject.type === "checkout") {
    add(
      "refunds",
      logCount(history.refunds, 3),
      `${history.refunds} refund${history.refunds === 1 ? "" : "s"} for this email or card`,
    );
    add(
      "disputes",
      logCount(history.disputes, 2),
      `${history.disputes} dispute${history.disputes === 1 ? "" : "s"} for this email or card`,
    );
  }
  return out;
}

/** "under a minute", "3 min", "5 h", "12 days". */
function ageText(ms: number): string {
  if (ms < MINUTE) return "under a minute";
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} days`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function hostOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}
