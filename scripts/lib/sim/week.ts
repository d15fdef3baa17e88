/**
 * A week on a virtual clock (issue 45): `npm run simulate -- --days 7`. The same populations
 * as the hour, with time shaped as a shop's week is:
 * - honest people come by the rhythm of their day and week (few at night, most in the evening,
 *   fewer at the weekend), so a spike has a quiet baseline to stand out from;
 * - attacks start on `attackFromDay` (day 5 by default, 1-based) and run to the end, at any
 *   hour: the days before are honest traffic only;
 * - a group's own events keep their spacing (a person's signup, then their trial minutes
 *   later): only where groups start is drawn from the rhythm;
 * - a third of honest people come back on later days (returnVisits).
 * Day 1 starts on a Monday at 00:00 of simulated time.
 */
import { HOUR, MINUTE, type SimEvent } from "./journey.ts";
import type { Rng } from "./rng.ts";

export const DAY = 24 * HOUR;

/** Honest traffic per hour of the day, relative (00:00 first): low at night, high at 19:00. */
export const HOURLY = [
  0.25, 0.15, 0.1, 0.08, 0.08, 0.12, 0.25, 0.45, 0.7, 0.9, 1, 1.1, 1.15, 1.1, 1, 1, 1.05, 1.2, 1.4,
  1.5, 1.45, 1.2, 0.8, 0.45,
] as const;

/** Honest traffic per day of the week, relative (Monday first): a quieter weekend. */
export const WEEKDAY = [1, 1, 1, 1.05, 1.1, 0.8, 0.75] as const;

const PEAK = Math.max(...HOURLY) * Math.max(...WEEKDAY);

/** How much honest traffic comes at `at` (ms of simulated time), relative to the week's mean hour. */
export function rhythmAt(at: number): number {
  const hour = Math.floor(at / HOUR);
  return (HOURLY[((hour % 24) + 24) % 24] ?? 1) * (WEEKDAY[Math.floor(hour / 24) % 7] ?? 1);
}

/** A time in [from, to) drawn by the rhythm (rejection sampling: the same seed, the same time). */
export function rhythmicTime(r: Rng, from: number, to: number): number {
  for (;;) {
    const at = from + r.next() * (to - from);
    if (r.next() * PEAK < rhythmAt(at)) return at;
  }
}

/**
 * Populations' settings in a week (population.ts Params): the aged referral ring makes its
 * referrers 2-4 days before it starts, and each logs in once a day meanwhile.
 */
export const WEEK_PARAMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  aged_referral_ring: {
    referrer_age_hours_min: 48,
    referrer_age_hours_max: 96,
    referrer_daily_logins: 1,
  },
};

export type WeekOptions = {
  days: number;
  /** The day (1-based) the attacks start on; they run to the end of the week. */
  attackFromDay?: number;
};

export const ATTACK_FROM_DAY = 5;

/** Where a group of a population starts in the week: by the rhythm, or in the attack days. */
export function weekStart(week: WeekOptions, attack: boolean): (r: Rng, span: number) => number {
  const from = ((week.attackFromDay ?? ATTACK_FROM_DAY) - 1) * DAY;
  if (from < 0 || from >= week.days * DAY)
    throw new Error(`the attacks start on day ${week.attackFromDay}, outside ${week.days} days`);
  return attack
    ? (r, span) => from + r.next() * (span - from) * 0.97
    : (r, span) => rhythmicTime(r, 0, span * 0.99);
}

/** Share of honest people who come back on later days, and how many times at most. */
export const RETURNING = 0.35;
const MAX_RETURNS = 3;

/**
 * People coming back: a share of the honest actors return on 1-3 later days, each time a login
 * at an hour the rhythm gives, then half the time a checkout a few minutes later, from the same
 * device, address and card as their last form event (a returning customer who kept their laptop).
 * Nothing they did once (a signup, a trial, a referral) happens again.
 */
export function returnVisits(r: Rng, honest: readonly SimEvent[], span: number): SimEvent[] {
  const last = new Map<string, SimEvent>();
  for (const event of honest) {
    if (!event.attack && event.screen.type !== "request" && event.at >= 0)
      last.set(event.actor, event);
  }
  const visits: SimEvent[] = [];
  for (const seen of last.values()) {
    if (!r.chance(RETURNING)) continue;
    let day = Math.floor(seen.at / DAY);
    for (let k = r.int(1, MAX_RETURNS); k > 0; k--) {
      day += r.int(1, 2);
      if ((day + 1) * DAY > span) break;
      const at = rhythmicTime(r, day * DAY, (day + 1) * DAY);
      const { card_fingerprint, ...screen } = seen.screen;
      const visit = (type: "login" | "checkout", when: number, extra = {}): SimEvent => ({
        ...seen,
        at: when,
        early: undefined,
        history: undefined,
        payoff: true,
        screen: { ...screen, ...extra, type },
      });
      visits.push(visit("login", at));
      if (r.chance(0.5))
        visits.push(
          visit("checkout", at + r.int(2, 15) * MINUTE, {
            amount: r.int(9, 99) * 100,
            currency: "usd",
            ...(card_fingerprint ? { card_fingerprint } : {}),
          }),
        );
    }
  }
  return visits;
}

/** The day (1-based) an event of the week falls on. */
export const dayOf = (at: number) => Math.max(1, Math.floor(at / DAY) + 1);

export type DayFigures = {
  day: number;
  events: number;
  /** Attack payoff events, and those blocked or reviewed. */
  attacks: number;
  attacksCaught: number;
  ordinary: number;
  ordinaryBlocked: number;
  ordinaryReviewed: number;
  /** The merchant's alerts that fired that day (absent: not measured). */
  alerts?: FiredAlert[];
  /** Minutes from the day's first attack event to the first alert after it (null: none). */
  alertAfterAttackMinutes?: number | null;
};

/** An alert that fired, at ms of simulated time from the traffic's start. */
export type FiredAlert = { at: number; name: string; message: string };

/** Per day of the week: attacks caught, honest events blocked and reviewed. */
export function dayFiguresOf(
  outcomes: readonly {
    at: number;
    attack: boolean;
    payoff: boolean;
    decision: "allow" | "review" | "block";
  }[],
  days: number,
  fired?: readonly FiredAlert[],
): DayFigures[] {
  const table: DayFigures[] = Array.from({ length: days }, (_, i) => ({
    day: i + 1,
    events: 0,
    attacks: 0,
    attacksCaught: 0,
    ordinary: 0,
    ordinaryBlocked: 0,
    ordinaryReviewed: 0,
    ...(fired ? { alerts: [], alertAfterAttackMinutes: null } : {}),
  }));
  const firstAttack = new Map<number, number>();
  for (const o of outcomes) {
    const row = table[Math.min(days, dayOf(o.at)) - 1];
    if (!row) continue;
    row.events++;
    if (o.attack) {
      const day = row.day;
      if (!firstAttack.has(day) || o.at < (firstAttack.get(day) ?? 0)) firstAttack.set(day, o.at);
      if (!o.payoff) continue;
      row.attacks++;
      if (o.decision !== "allow") row.attacksCaught++;
    } else {
      row.ordinary++;
      if (o.decision === "block") row.ordinaryBlocked++;
      else if (o.decision === "review") row.ordinaryReviewed++;
    }
  }
  for (const alert of fired ?? []) table[Math.min(days, dayOf(alert.at)) - 1]?.alerts?.push(alert);
  for (const row of table) {
    const from = firstAttack.get(row.day);
    if (from === undefined || !fired) continue;
    const after = fired.find((a) => a.at >= from);
    row.alertAfterAttackMinutes = after ? Math.round((after.at - from) / 60_000) : null;
  }
  return table;
}

/** The week's table, one row a day (markdown). */
export function dayTable(rows: readonly DayFigures[]): string {
  const pct = (part: number, whole: number) =>
    whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`;
  const measured = rows.some((d) => d.alerts);
  const clockOf = (at: number) => {
    const inDay = ((at % DAY) + DAY) % DAY;
    const h = Math.floor(inDay / HOUR);
    const m = Math.floor((inDay % HOUR) / 60_000);
    return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
  };
  const alertsOf = (d: DayFigures) => {
    const fired = (d.alerts ?? []).map((a) => `${clockOf(a.at)} ${a.name}`).join("; ") || "none";
    const after =
      d.alertAfterAttackMinutes === undefined || d.attacks === 0
        ? ""
        : d.alertAfterAttackMinutes === null
          ? " (none after the attack began)"
          : ` (first ${d.alertAfterAttackMinutes} min after the attack began)`;
    return ` ${fired}${after} |`;
  };
  return [
    `| day | events | attack payoffs | caught | ordinary | blocked | reviewed |${measured ? " alerts fired |" : ""}`,
    `|---:|---:|---:|---:|---:|---:|---:|${measured ? "---|" : ""}`,
    ...rows.map(
      (d) =>
        `| ${d.day} | ${d.events} | ${d.attacks} | ${pct(d.attacksCaught, d.attacks)} | ${d.ordinary} | ${pct(d.ordinaryBlocked, d.ordinary)} | ${pct(d.ordinaryReviewed, d.ordinary)} |${measured ? alertsOf(d) : ""}`,
    ),
  ].join("\n");
}

/** The events of the traffic on each day (for a check that the rhythm and the attack day hold). */
export function eventsPerDay(traffic: readonly SimEvent[], days: number): number[] {
  const counts = Array.from({ length: days }, () => 0);
  for (const event of traffic) {
    const day = Math.min(days, dayOf(event.at)) - 1;
    counts[day] = (counts[day] ?? 0) + 1;
  }
  return counts;
}
