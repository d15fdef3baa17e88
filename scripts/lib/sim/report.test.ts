import { describe, expect, it } from "vitest";
import { buildTraffic } from "./mix.ts";
import { outcomeOf } from "./outcome-fixture.ts";
import { figuresOf } from "./report.ts";

const o = outcomeOf;

describe("figuresOf", () => {
  const outcomes = [
    o("farm", true, "f1", "block", [["rule_ip", "block"]]),
    o("farm", true, "f2", "review", [["rule_entropy", "review"]]),
    o("farm", true, "f3", "allow"),
    o("scraper", true, "s1", "allow"),
    o("office", false, "p1", "block", [["rule_ip", "block"]]),
    o("office", false, "p1", "allow"),
    o("office", false, "p2", "allow"),
    o("relay", false, "p3", "review", [["rule_entropy", "review"]]),
  ];
  const f = figuresOf("t", outcomes, ["farm"]);

  it.each([
    ["recall over every attack", f.attacks.recall, 2 / 4],
    ["attacks blocked", f.attacks.blockedRate, 1 / 4],
    ["recall over the targeted attacks", f.targeted?.recall, 2 / 3],
    ["ordinary events blocked", f.ordinary.blockedRate, 1 / 4],
    ["ordinary events reviewed", f.ordinary.reviewedRate, 1 / 4],
    ["ordinary people blocked at least once", f.ordinary.peopleBlockedRate, 1 / 3],
    ["precision: flagged events that were attacks", f.precision, 2 / 4],
  ])("%s", (_name, actual, expected) => {
    expect(actual).toBeCloseTo(expected, 6);
  });

  it("attributes each flagged event to the rules in its reasons, with the populations hurt", () => {
    expect(f.rules).toEqual([
      {
        rule: "rule_entropy",
        attackFlagged: 1,
        ordinaryBlocked: 0,
        ordinaryReviewed: 1,
        precision: 0.5,
        hurts: [{ population: "relay", events: 1 }],
      },
      {
        rule: "rule_ip",
        attackFlagged: 1,
        ordinaryBlocked: 1,
        ordinaryReviewed: 0,
        precision: 0.5,
        hurts: [{ population: "office", events: 1 }],
      },
    ]);
  });
});

describe("buildTraffic", () => {
  it("gives the same traffic for the same seed, and other traffic for another", () => {
    const a = buildTraffic({ seed: 5, events: 300, hours: 1 });
    expect(buildTraffic({ seed: 5, events: 300, hours: 1 })).toEqual(a);
    expect(buildTraffic({ seed: 6, events: 300, hours: 1 })).not.toEqual(a);
  });

  it("keeps time order, the attack share and the shares given", () => {
    const events = buildTraffic({ seed: 5, events: 1000, hours: 1, shares: { launch_promo: 0 } });
    expect(
      events.every((e, i) => i === 0 || (events[i - 1] as (typeof events)[number]).at <= e.at),
    ).toBe(true);
    expect(events.filter((e) => e.attack).length / events.length).toBeCloseTo(0.25, 1);
    expect(events.some((e) => e.population === "launch_promo")).toBe(false);
    expect(() => buildTraffic({ seed: 5, events: 10, hours: 1, shares: { nobody: 1 } })).toThrow(
      /nobody/,
    );
  });
});
