/**
 * Linked accounts (decision 023): the other end users this event's identities join it to, one
 * hop through a shared device, normalized email, card, referrer, or an IP off consumer
 * networks, in 30 days. Each is read as "subjects" (counting.ts): per end user, when it was
 * first seen on the identity and whether any of its events was blocked, denied or labelled
 * fraud. An identity shared by more than HUB_LIMIT accounts is a hub (a carrier's NAT, a
 * shop's tablet) and links nobody; the union is capped at LINK_CAP. Pure.
 */

import { LINK_WINDOW_DAYS } from "../../shared/catalog/rule-records.ts";
import {
  LINKED_ACCOUNTS_MAX,
  type LinkKind,
  SCREEN_TYPES,
} from "../../shared/schemas/screening.ts";
import { DAY, declare, fixed, HOUR, type IdentityKind, recordWindow } from "./counting.ts";
import type { Links } from "./types.ts";

/** Accounts on one identity above which it is a hub, not a link. */
export const HUB_LIMIT = 25;
/** At most this many accounts in one summary (the console shows "50+"). */
export const LINK_CAP = LINKED_ACCOUNTS_MAX;
/** Newest rows of one identity read for its subjects (bounds a busy identity's lookup). */
export const SUBJECT_ROWS = 200;
/**
 * End users a subjects answer holds at most: enough to tell a hub (more than HUB_LIMIT others,
 * this event's own account perhaps among them), so a busy identity costs no more to read.
 */
export const SUBJECTS_MAX = HUB_LIMIT + 2;
/** How far back accounts are linked: the one constant rule_farming's record and retention read. */
export const LINK_WINDOW = LINK_WINDOW_DAYS * DAY;

const LINK_KINDS = [
  "device",
  "email",
  "card",
  "ip",
  "referrer",
] as const satisfies readonly LinkKind[];

/**
 * What one person holds: a device, an inbox, a card. Accounts linked only through a referrer
 * (a creator's post brings dozens of honest followers) or an address off consumer networks
 * (a commercial VPN exit is shared by strangers) are shown, but counted neither as accounts
 * new in the last hour nor as linked to a bad account (npm run simulate: influencer_referrals
 * and consumer_vpn were blocked and reviewed when they were).
 */
const STRONG_KINDS: ReadonlySet<LinkKind> = new Set(["device", "email", "card"]);

/** An account's own events: page requests neither link accounts nor ask for links. */
const ACCOUNT_EVENTS = SCREEN_TYPES.filter((type) => type !== "request");

/**
 * The identities that link accounts. Asked by the events a farm is after (not a login or a
 * checkout: the rules read links only there, and each kind is one more index scan).
 */
export const linkCounts = declare({
  group: "links",
  kinds: LINK_KINDS,
  asks: ["signup", "trial_start", "promo_redemption", "referral"],
  types: ACCOUNT_EVENTS,
  window: fixed(LINK_WINDOW),
  measure: "subjects",
  offConsumerOnly: ["ip"],
});

/**
 * The referrer's own rows (when it was first seen), asked by a referral: over the 400 days
 * counting rows are kept, so a customer of months who logged in yesterday is not "new".
 */
export const referrerCounts = declare({
  group: "referrer",
  kinds: ["user"],
  asks: ["referral"],
  // An account's first steps are its signup and logins: rows of these alone date it, and a
  // user row on every trial, promo and referral would cost a write each.
  types: ["signup", "login"],
  window: recordWindow("rule_promo_abuse", "promos"),
  measure: "subjects",
  atReferrer: true,
});

/** One end user as a "subjects" probe answers it: `subject|firstSeenMs|bad`. */
export type SubjectEntry = { subject: string; first: number; bad: boolean };

export function parseEntry(text: string): SubjectEntry | null {
  const [subject, first, bad] = text.split("|");
  if (!subject || first === undefined) return null;
  return { subject, first: Number(first), bad: bad === "1" || bad === "true" };
}

/** The answers of the subjects probes, by group and kind: every end user seen on it. */
export type SubjectAnswers = Map<string, Map<IdentityKind, readonly SubjectEntry[]>>;

/**
 * The links of an event from its subjects answers. `self` is the event's own end user (not
 * linked to itself); `now` the event's time.
 */
export function linksOf(answers: SubjectAnswers, self: string | null, now: number): Links | null {
  const links = answers.get(linkCounts.group);
  const referrer = answers.get(referrerCounts.group)?.get("user");
  if (!links && !referrer) return null;
  const accounts = new Map<string, { first: number; bad: boolean; through: Set<LinkKind> }>();
  const through = new Map<LinkKind, number>();
  const hubs: Links["hubs"] = [];
  const lastHourThrough: Links["lastHourThrough"] = {};
  let deviceFirstSeen: number | null = null;
  let accountFirstSeen: number | null = null;
  for (const [kind, entries] of links ?? []) {
    if (kind === "device") deviceFirstSeen = earliest(entries);
    // Its own first sighting on any of its identities (within the rows read).
    const own = earliest(entries.filter((e) => e.subject === self));
    if (own !== null && (accountFirstSeen === null || own < accountFirstSeen))
      accountFirstSeen = own;
    const others = entries.filter((e) => e.subject !== self);
    if (others.length === 0) continue;
    const linkKind = kind as LinkKind;
    if (others.length > HUB_LIMIT) {
      hubs.push({ kind: linkKind, accounts: others.length });
      continue;
    }
    through.set(linkKind, others.length);
    const recentHere = others.filter((e) => e.first >= now - HOUR).length;
    if (recentHere > 0) lastHourThrough[linkKind] = recentHere;
    for (const e of others) {
      const known = accounts.get(e.subject);
      if (known) {
        known.first = Math.min(known.first, e.first);
        known.bad ||= e.bad;
        known.through.add(linkKind);
      } else if (accounts.size < LINK_CAP) {
        accounts.set(e.subject, { first: e.first, bad: e.bad, through: new Set([linkKind]) });
      }
    }
  }
  const all = [...accounts.values()];
  const hour = now - HOUR;
  // Counted towards "new in the last hour": accounts sharing what one person holds.
  const strong = all.filter((a) => [...a.through].some((kind) => STRONG_KINDS.has(kind)));
  const recent = strong
    .map((a) => a.first)
    .filter((first) => first >= hour)
    .sort((a, b) => a - b);
  return {
    accounts: all.length,
    firstSeenLastHour: recent.length,
    firstSeenLastDay: strong.filter((a) => a.first >= now - DAY).length,
    bad: strong.filter((a) => a.bad).length,
    through: [...through].map(([kind, n]) => ({ kind, accounts: n })),
    lastHourThrough,
    hubs,
    accountFirstSeen,
    deviceFirstSeen,
    referrerFirstSeen: referrer ? earliest(referrer) : null,
    recent,
  };
}

function earliest(entries: readonly SubjectEntry[]): number | null {
  let min: number | null = null;
  for (const e of entries) if (min === null || e.first < min) min = e.first;
  return min;
}

/**
 * How evenly a linked group's accounts appeared: the coefficient of variation of the gaps
 * between first sightings (a script sleeping a fixed or uniform time is regular; people
 * arriving on their own are bursty). Null with fewer than `min` accounts.
 */
export function regularity(times: readonly number[], min = 4): number | null {
  if (times.length < min) return null;
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) gaps.push((times[i] as number) - (times[i - 1] as number));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  if (mean <= 0) return 0;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  return sd / mean;
}
