/** The replay's counters answer each probe as the live counting query does (a table of cases). */
import { describe, expect, it } from "vitest";
import { effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import { DEFAULT_BLOCKLIST } from "../../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES, RULE_KEYS } from "../../../shared/schemas/rules.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import type { EventSubject, Policy } from "../../engine/types.ts";
import {
  IDENTITY_KINDS,
  type Identities,
  type Probe,
  probesFor,
} from "../screening/screening.entry.ts";
import { type CounterRow, createReplayCounters, lookback } from "./replay-counters.ts";

const T = 1_800_000_000_000;
const HOUR = 3_600_000;
const row = (at: number, over: Partial<CounterRow> = {}): CounterRow => ({
  at,
  type: "signup",
  blocked: false,
  subject: null,
  user: null,
  card: null,
  promo: null,
  ...over,
});
const probe = (over: Partial<Probe>): Probe => ({
  name: "x",
  kind: "ip",
  value: "v",
  since: new Date(T - HOUR),
  measure: "count",
  ...over,
});

const CASES: { name: string; rows: CounterRow[]; probe: Partial<Probe>; answer: number }[] = [
  {
    name: "a row exactly at the window's start counts",
    rows: [row(T - HOUR)],
    probe: {},
    answer: 1,
  },
  { name: "a row 1 ms before it does not", rows: [row(T - HOUR - 1)], probe: {}, answer: 0 },
  {
    name: "only the probe's types",
    rows: [row(T, { type: "login" }), row(T)],
    probe: { types: ["signup"] },
    answer: 1,
  },
  {
    name: "blocked rows left out when asked",
    rows: [row(T, { blocked: true }), row(T)],
    probe: { notBlocked: true },
    answer: 1,
  },
  {
    name: "only the probe's promo code and user",
    rows: [row(T, { promo: "p1", user: "u1" }), row(T, { promo: "p2", user: "u1" })],
    probe: { promo: "p1", user: "u1" },
    answer: 1,
  },
  {
    name: "distinct subjects, nulls and this event's own subject left out",
    rows: [row(T, { subject: "a" }), row(T, { subject: "a" }), row(T, { subject: "b" })].concat([
      row(T, { subject: null }),
      row(T, { subject: "me" }),
    ]),
    probe: { measure: "distinctSubject", except: "me" },
    answer: 2,
  },
  {
    name: "distinct subjects without an own subject keep every non-null one",
    rows: [row(T, { subject: "a" }), row(T, { subject: "me" }), row(T)],
    probe: { measure: "distinctSubject", except: null },
    answer: 2,
  },
  {
    name: "distinct cards other than this one",
    rows: [row(T, { card: "c1" }), row(T, { card: "c2" }), row(T, { card: "c1" })],
    probe: { measure: "distinctCard", except: "c2" },
    answer: 1,
  },
  { name: "another value is another list", rows: [row(T)], probe: { value: "w" }, answer: 0 },
];

describe("replay counters", () => {
  it.each(CASES)("$name", ({ rows, probe: over, answer }) => {
    const counters = createReplayCounters({ ip: 24 * HOUR });
    for (const r of rows) counters.add("ip", "v", r);
    expect(counters.answer(probe(over))).toBe(answer);
  });

  it("seeds read out of order count once sorted", () => {
    const counters = createReplayCounters({ ip: 24 * HOUR });
    counters.seed("ip", "v", row(T - 10));
    counters.seed("ip", "v", row(T - 2 * HOUR));
    counters.seed("ip", "v", row(T - 20));
    counters.settle();
    expect(counters.answer(probe({}))).toBe(2);
  });

  it("forgets rows past the kind's look-back, and never keeps kinds no probe reads", () => {
    const counters = createReplayCounters({ ip: HOUR });
    counters.add("ip", "v", row(T - 3 * HOUR));
    counters.add("ip", "v", row(T));
    counters.add("device", "d", row(T));
    expect(counters.answer(probe({ since: new Date(T - 5 * HOUR) }))).toBe(1);
    expect(counters.wants("device")).toBe(false);
    expect(counters.size()).toBe(1);
  });
});

describe("lookback", () => {
  // Every identity, every event type, each rule alone: what the live screening asks for, the
  // replay must keep, at least as far back (else a backtest cannot reproduce live decisions).
  const ids: Identities = {
    values: Object.fromEntries(IDENTITY_KINDS.map((kind) => [kind, `${kind}-1`])),
    legacy: {},
    subject: "user-1",
  };
  const now = new Date(T);
  it.each(RULE_KEYS.filter((key) => key.startsWith("rule_")))("keeps what %s probes", (rule) => {
    const { enabled, settings } = effectiveRules(
      { ...DEFAULT_RULES, [rule]: true },
      DEFAULT_TEMPLATES,
      {},
    );
    const policy: Policy = {
      rules: { ...DEFAULT_RULES, [rule]: true },
      templates: DEFAULT_TEMPLATES,
      blocklist: DEFAULT_BLOCKLIST,
      enabled,
      settings,
    } as Policy;
    const keep = lookback(policy);
    for (const type of SCREEN_TYPES) {
      const subject = {
        kind: "event",
        type,
        referrerUserId: "referrer-1",
        cardFingerprint: "card-1",
      } as EventSubject;
      for (const asked of probesFor(subject, ids, policy, now, "k")) {
        expect(keep[asked.kind] ?? 0, `${rule} ${type} ${asked.name}`).toBeGreaterThanOrEqual(
          T - asked.since.getTime(),
        );
      }
    }
  });
});
