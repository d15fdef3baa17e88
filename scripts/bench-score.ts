/**
 * What the risk score costs a screening, and what a fit costs: signalsOf + scoreOf per event
 * (µs, over events with many signals), and fitLogistic on 100,000 labelled rows of every signal
 * (seconds; issue 33 asks under a minute, off the request path). Pure CPU in this process: the
 * HTTP figures are bench:screen's. Run: npm run bench:score.
 */
import { DEFAULT_WEIGHTS } from "../server/engine/default-weights.ts";
import { type Example, fitLogistic } from "../server/engine/fit.ts";
import { emptyCounts } from "../server/engine/rule-counts.ts";
import { scoreOf } from "../server/engine/score.ts";
import { SIGNAL_KEYS, signalsOf } from "../server/engine/signals.ts";
import type { EventSubject, Features, Policy } from "../server/engine/types.ts";
import { effectiveRules } from "../shared/catalog/effective-rules.ts";
import { DEFAULT_RULES } from "../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../shared/schemas/templates.ts";
import { seededRandom } from "./lib/seeded-random.ts";

const random = seededRandom(33);
const now = Date.parse("2026-11-26T12:00:00Z");
const { enabled, settings } = effectiveRules(DEFAULT_RULES, DEFAULT_TEMPLATES, {});
const policy: Policy = {
  rules: DEFAULT_RULES,
  templates: DEFAULT_TEMPLATES,
  blocklist: { countries: [], email_providers: [] },
  enabled,
  settings,
  score: { weights: DEFAULT_WEIGHTS, thresholds: {} },
};

const subjects: EventSubject[] = Array.from({ length: 2000 }, (_, i) => ({
  kind: "event",
  type: (["signup", "trial_start", "referral", "checkout"] as const)[i % 4] ?? "signup",
  userId: `u${i}`,
  email: `user${i}@fresh-inbox-${i % 7}.io`,
  ip: `198.51.100.${i % 250}`,
  userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile Safari",
  deviceId: `d${i % 300}`,
  timezone: "Asia/Manila",
  origin: "https://evil.example",
  referrer: null,
  url: "https://shop.example.com/signup",
  promoCode: null,
  referralCode: null,
  referrerUserId: i % 4 === 2 ? "ref1" : null,
  cardFingerprint: `c${i % 50}`,
  browser: {
    webdriver: false,
    behavior: {
      timeToSubmitMs: 900,
      pointerEvents: 1,
      keyEvents: 20,
      keyIntervalSdMs: 3,
      pasteCount: 0,
    },
    request: null,
  },
}));
const counts = emptyCounts();
for (const group of Object.values(counts)) for (const kind of Object.keys(group)) group[kind] = 3;
const features: Features = {
  now,
  disposableDomains: new Set(),
  geo: { country: "US", asn: 14061, hosting: true },
  timezoneFitsCountry: false,
  bot: false,
  emailRandomness: { score: 0.8, random: false },
  counts,
  links: {
    accounts: 6,
    firstSeenLastHour: 4,
    firstSeenLastDay: 6,
    bad: 1,
    through: [{ kind: "card", accounts: 6 }],
    lastHourThrough: { device: 2 },
    hubs: [],
    accountFirstSeen: now - 3 * 60_000,
    deviceFirstSeen: now - 3 * 60_000,
    referrerFirstSeen: now - 3_600_000,
    recent: [now - 5e5, now - 4e5, now - 3e5, now - 2e5, now - 1e5],
  },
  stripeHistory: { refunds: 1, disputes: 0 },
};

let signalsSeen = 0;
for (let round = 0; round < 3; round++) {
  const started = performance.now();
  for (const subject of subjects) {
    const signals = signalsOf(subject, policy, features);
    signalsSeen = signals.length;
    scoreOf(subject.type, signals, DEFAULT_WEIGHTS);
  }
  const us = ((performance.now() - started) * 1000) / subjects.length;
  console.log(
    `round ${round + 1}: ${us.toFixed(1)} µs per event (signals + score, ${signalsSeen} signals)`,
  );
}

const rows: Example[] = Array.from({ length: 100_000 }, (_, i) => {
  const x: Record<string, number> = {};
  for (const key of SIGNAL_KEYS) if (random() < 0.12) x[key] = random() < 0.5 ? 1 : 2;
  const attack = (x.account_new ?? 0) + (x.linked_last_hour ?? 0) + (x.hosting_network ?? 0) > 1.5;
  return {
    group: ["signup", "trial_start", "checkout"][i % 3] ?? "signup",
    x,
    y: attack !== random() < 0.05 ? 1 : 0,
  };
});
const fitStarted = performance.now();
const fitted = fitLogistic(rows, { keys: SIGNAL_KEYS, lambda: 1, prior: DEFAULT_WEIGHTS });
console.log(
  `fit: 100,000 labelled rows × ${SIGNAL_KEYS.length} signals in ${((performance.now() - fitStarted) / 1000).toFixed(2)} s (${fitted.iterations} Newton steps)`,
);
