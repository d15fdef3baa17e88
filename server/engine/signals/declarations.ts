/**
 * One record per score signal (issue 43): its family of evidence (decision 030), the fit's
 * constraint on its weight, and the counts it reads. A signal reads a count only through the
 * declaration here (`SIGNALS.signups_ip.counts.signups.of(features).ip`), and each count is a
 * rule's own declaration object (counting.ts), so a misspelt kind or a count no rule declares
 * is a type error, and signals.test.ts fails when one is not asked by the score. In the order
 * the weights file lists them (SIGNAL_KEYS).
 */
import type { CountDecl } from "../counting.ts";
import { cardsLastHour, usersOnCard } from "../rules/card-reuse.ts";
import { usersOnDevice } from "../rules/device-reuse.ts";
import { domainSeen, domainSignups } from "../rules/email.ts";
import { accountsOn } from "../rules/farming.ts";
import { priorTrials } from "../rules/one-trial.ts";
import { promoRedeemedBy, referralsOfReferrer, referrerShares } from "../rules/promo-abuse.ts";
import { fromSource, ofCode } from "../rules/promo-velocity.ts";
import { requestsLastMinute } from "../rules/scraping.ts";
import { signupsLastHour } from "../rules/signup-velocity.ts";

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

export type SignalDecl = {
  family: Family | "context";
  /**
   * "never negative": a count of what an attacker repeats; more of it never makes an event
   * safer, so the fit holds its weight at 0 or above (scripts/lib/fit/train.ts fitWithSigns).
   * Fitted freely, some came out negative on the simulator, correcting a correlated count
   * (signups from one /24 −58 points against +35 from its network), so a farm's third signup
   * from one /24 scored lower than its first; an attacker reading the shipped file could use it.
   */
  fit?: "never negative";
  /** The counts it reads, by a name of its own. */
  counts?: Record<string, CountDecl>;
};

const repeated = "never negative" as const;
const signups = { signups: signupsLastHour };
const newDomain = { seen: domainSeen, hour: domainSignups };

export const SIGNALS = {
  // Context: what every newcomer carries.
  account_new: { family: "context" },
  account_young: { family: "context" },
  returning_account: { family: "context" },
  device_new: { family: "context" },
  // Identity reuse and links: one person behind several accounts.
  linked_last_hour: { family: "identity", fit: repeated },
  linked_last_day: { family: "identity", fit: repeated },
  linked_bad: { family: "history", fit: repeated },
  linked_even_pace: { family: "behaviour" },
  phone_accounts: { family: "identity", fit: repeated },
  // Where the event came from, and whether the browser agrees with it.
  hosting_network: { family: "network" },
  relay_network: { family: "network" },
  unknown_network: { family: "network" },
  // The software that sent it, and how it was used.
  no_browser: { family: "device" },
  webdriver: { family: "device" },
  bot_user_agent: { family: "device" },
  no_input_events: { family: "behaviour" },
  even_typing: { family: "behaviour" },
  fast_submit: { family: "behaviour" },
  request_inconsistent: { family: "device" },
  timezone_mismatch: { family: "network" },
  referrer_mismatch: { family: "device" },
  // The address.
  disposable_email: { family: "email" },
  new_email_domain: { family: "context", counts: newDomain },
  email_typo: { family: "email" },
  random_email: { family: "email" },
  relay_email: { family: "email" },
  // Velocity and reuse, each identity counted before this event.
  signups_ip: { family: "network", fit: repeated, counts: signups },
  signups_subnet: { family: "network", fit: repeated, counts: signups },
  signups_network: { family: "network", fit: repeated, counts: signups },
  signups_device: { family: "identity", fit: repeated, counts: signups },
  domain_signups: { family: "email", fit: repeated, counts: newDomain },
  accounts_on_device: {
    family: "identity",
    fit: repeated,
    counts: { users: usersOnDevice, accounts: accountsOn },
  },
  accounts_on_card: {
    family: "identity",
    fit: repeated,
    counts: { users: usersOnCard, accounts: accountsOn },
  },
  prior_trials: { family: "identity", fit: repeated, counts: { prior: priorTrials } },
  promo_reused: { family: "identity", fit: repeated, counts: { by: promoRedeemedBy } },
  promo_burst: { family: "behaviour", fit: repeated, counts: { code: ofCode } },
  promo_same_source: { family: "behaviour", fit: repeated, counts: { source: fromSource } },
  referrer_shares: { family: "identity", fit: repeated, counts: { shares: referrerShares } },
  referrals_to_referrer: {
    family: "behaviour",
    fit: repeated,
    counts: { referrals: referralsOfReferrer },
  },
  // What happened before: a referrer with no past, refunds, disputes.
  referrer_young: { family: "history" },
  requests_per_minute: {
    family: "behaviour",
    fit: repeated,
    counts: { requests: requestsLastMinute },
  },
  cards_last_hour: { family: "identity", fit: repeated, counts: { cards: cardsLastHour } },
  refunds: { family: "history", fit: repeated },
  disputes: { family: "history", fit: repeated },
} as const satisfies Record<string, SignalDecl>;

export type SignalKey = keyof typeof SIGNALS;

/** Every signal the score reads, in the order the weights file lists them. */
export const SIGNAL_KEYS = Object.keys(SIGNALS) as readonly SignalKey[];

const declared: Readonly<Record<SignalKey, SignalDecl>> = SIGNALS;

export const SIGNAL_FAMILY: Readonly<Record<SignalKey, Family | "context">> = Object.fromEntries(
  SIGNAL_KEYS.map((key) => [key, declared[key].family]),
) as Record<SignalKey, Family | "context">;

/** The signals whose weight the fit holds at 0 or above (their declarations' `fit`). */
export const NEVER_NEGATIVE: ReadonlySet<SignalKey> = new Set(
  SIGNAL_KEYS.filter((key) => declared[key].fit === "never negative"),
);

/** Every count a signal reads (the score must ask each: rule-counts.ts allCounts). */
export function signalCounts(): { signal: SignalKey; name: string; decl: CountDecl }[] {
  return SIGNAL_KEYS.flatMap((signal) =>
    Object.entries(declared[signal].counts ?? {}).map(([name, decl]) => ({ signal, name, decl })),
  );
}

/** One signal as measured on one event: its value (0: nothing to say) and what it saw. */
export type Signal = { signal: SignalKey; value: number; detail: string };
