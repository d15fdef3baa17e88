import { describe, expect, it } from "vitest";
import { HOUR } from "./journey.ts";
import { buildTraffic } from "./mix.ts";
import { rng } from "./rng.ts";
import { DAY, dayFiguresOf, dayTable, eventsPerDay, rhythmAt, rhythmicTime } from "./week.ts";

const week = buildTraffic({ seed: 45, events: 4000, hours: 7 * 24, days: 7 });

describe("a week of traffic (npm run simulate -- --days 7)", () => {
  it("spreads over the seven days, the same for the same seed", () => {
    const perDay = eventsPerDay(week, 7);
    expect(perDay.every((n) => n > 0)).toBe(true);
    expect(perDay.reduce((a, b) => a + b, 0)).toBe(week.length);
    expect(week.length).toBeGreaterThan(3500);
    const again = buildTraffic({ seed: 45, events: 4000, hours: 7 * 24, days: 7 });
    expect(again.map((e) => [e.at, e.actor])).toEqual(week.map((e) => [e.at, e.actor]));
  });

  it("keeps the days before day 5 honest: no attack's payoff comes before it", () => {
    const attacks = week.filter((e) => e.attack && e.payoff);
    expect(attacks.length).toBeGreaterThan(500);
    expect(Math.min(...attacks.map((e) => e.at))).toBeGreaterThanOrEqual(4 * DAY);
    // An attack's own groundwork (an aged referrer's signup and logins) comes days early.
    expect(Math.min(...week.filter((e) => e.attack).map((e) => e.at))).toBeGreaterThan(0);
    const later = buildTraffic({
      seed: 45,
      events: 2000,
      hours: 7 * 24,
      days: 7,
      attackFromDay: 7,
    });
    const laterAttacks = later.filter((e) => e.attack && e.payoff).map((e) => e.at);
    expect(Math.min(...laterAttacks)).toBeGreaterThanOrEqual(6 * DAY);
  });

  it("brings honest people by the day's rhythm: evenings busy, nights quiet, the weekend quieter", () => {
    const honest = week.filter((e) => !e.attack && e.at >= 0);
    const atHours = (from: number, to: number) =>
      honest.filter((e) => {
        const hour = Math.floor(e.at / HOUR) % 24;
        return hour >= from && hour < to;
      }).length;
    expect(atHours(18, 21)).toBeGreaterThan(4 * atHours(2, 5));
    const perDay = Array.from(
      { length: 7 },
      (_, d) => honest.filter((e) => Math.floor(e.at / DAY) === d).length,
    );
    const mean = (days: number[]) => days.reduce((a, b) => a + b, 0) / days.length;
    const weekday = mean(perDay.slice(0, 3));
    const weekend = mean(perDay.slice(5, 7));
    expect(weekend).toBeLessThan(weekday * 0.9);
  });

  it("brings a third of honest people back on later days, to log in and buy, never to sign up again", () => {
    const days = new Map<string, Set<number>>();
    const types = new Map<string, string[]>();
    for (const e of week.filter((e) => !e.attack && e.at >= 0)) {
      days.set(e.actor, (days.get(e.actor) ?? new Set()).add(Math.floor(e.at / DAY)));
      types.set(e.actor, [...(types.get(e.actor) ?? []), e.screen.type]);
    }
    const people = [...days.keys()].filter((a) => types.get(a)?.some((t) => t !== "request"));
    const back = people.filter((a) => (days.get(a)?.size ?? 0) > 1);
    expect(back.length / people.length).toBeGreaterThan(0.2);
    expect(back.length / people.length).toBeLessThan(0.5);
    const returned = week.filter(
      (e) =>
        !e.attack &&
        back.includes(e.actor) &&
        Math.floor(e.at / DAY) > Math.min(...(days.get(e.actor) ?? [0])),
    );
    expect(new Set(returned.map((e) => e.screen.type))).toEqual(new Set(["login", "checkout"]));
  });

  it("ages a referral ring's referrers for days, each logging in once a day, before they are named", () => {
    const ring = week.filter((e) => e.population === "aged_referral_ring");
    const named = new Map<string, number>();
    for (const e of ring) {
      const referrer = e.screen.referrer_user_id;
      if (referrer && !named.has(referrer)) named.set(referrer, e.at);
    }
    expect(named.size).toBeGreaterThan(3);
    for (const [userId, firstNamed] of named) {
      const own = ring.filter((e) => e.screen.user_id === userId);
      const signup = own.find((e) => e.screen.type === "signup");
      expect(signup).toBeDefined();
      const age = firstNamed - (signup?.at ?? 0);
      expect(age).toBeGreaterThan(47 * HOUR);
      expect(age).toBeLessThan(97 * HOUR);
      const logins = own.filter((e) => e.screen.type === "login");
      expect(logins.every((e) => e.at > (signup?.at ?? 0) && e.at < firstNamed)).toBe(true);
      expect(logins.length).toBeGreaterThanOrEqual(2);
    }
    // The hour keeps its ring as it was: referrers made 18-30 h before, no logins.
    const hour = buildTraffic({ seed: 45, events: 2000, hours: 1, only: ["aged_referral_ring"] });
    expect(hour.some((e) => e.screen.type === "login")).toBe(false);
  });

  it("draws times by the rhythm: as many as it says, within the range asked", () => {
    const r = rng(1);
    const times = Array.from({ length: 20_000 }, () => rhythmicTime(r, 0, DAY));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...times)).toBeLessThan(DAY);
    const at19 = times.filter((t) => Math.floor(t / HOUR) === 19).length;
    const at3 = times.filter((t) => Math.floor(t / HOUR) === 3).length;
    // 1.5 against 0.08 on Monday: about 19 times as many, within sampling noise.
    expect(at19 / at3).toBeGreaterThan(12);
    expect(at19 / at3).toBeLessThan(30);
    expect(rhythmAt(19 * HOUR)).toBeCloseTo(1.5);
    expect(rhythmAt(6 * DAY + 19 * HOUR)).toBeCloseTo(1.5 * 0.75);
  });

  it("tallies a day's attacks caught and honest events blocked and reviewed", () => {
    const rows = dayFiguresOf(
      [
        { at: 1000, attack: false, payoff: true, decision: "allow" },
        { at: 2000, attack: false, payoff: true, decision: "review" },
        { at: DAY + 5, attack: false, payoff: true, decision: "block" },
        { at: DAY + 6, attack: true, payoff: true, decision: "block" },
        { at: DAY + 7, attack: true, payoff: true, decision: "allow" },
        { at: DAY + 8, attack: true, payoff: false, decision: "allow" },
      ],
      2,
    );
    expect(rows).toEqual([
      {
        day: 1,
        events: 2,
        attacks: 0,
        attacksCaught: 0,
        ordinary: 2,
        ordinaryBlocked: 0,
        ordinaryReviewed: 1,
      },
      {
        day: 2,
        events: 4,
        attacks: 2,
        attacksCaught: 1,
        ordinary: 1,
        ordinaryBlocked: 1,
        ordinaryReviewed: 0,
      },
    ]);
    expect(dayTable(rows)).toContain("| 2 | 4 | 2 | 50.0% | 1 | 100.0% | 0.0% |");
    expect(dayTable(rows)).toContain("| 1 | 2 | 0 | – | 2 | 0.0% | 50.0% |");
  });

  it("puts each alert that fired on its day, and times the first after each day's first attack event", () => {
    const outcomes = [
      { at: 1000, attack: false, payoff: true, decision: "allow" as const },
      { at: DAY + 30 * 60_000, attack: true, payoff: false, decision: "allow" as const },
      { at: DAY + 40 * 60_000, attack: true, payoff: true, decision: "block" as const },
    ];
    const fired = [
      { at: 20 * HOUR, name: "Review queue waiting over a day", message: "" },
      { at: DAY + 37 * 60_000, name: "Blocks far above usual", message: "" },
    ];
    const rows = dayFiguresOf(outcomes, 2, fired);
    expect(rows.map((r) => [r.alerts?.map((a) => a.name), r.alertAfterAttackMinutes])).toEqual([
      [["Review queue waiting over a day"], null],
      [["Blocks far above usual"], 7],
    ]);
    const table = dayTable(rows);
    expect(table).toContain("| 20:00 Review queue waiting over a day |");
    expect(table).toContain(
      "| 00:37 Blocks far above usual (first 7 min after the attack began) |",
    );
    // Without alerts measured (a Warden at --url), the table has no alerts column.
    expect(dayTable(dayFiguresOf(outcomes, 2))).not.toContain("alerts");
  });
});
