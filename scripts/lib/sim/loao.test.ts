/** Leave-one-attack-out selection: which candidate each held-out attack is judged under. */
import { describe, expect, it } from "vitest";
import type { Outcome } from "./driver.ts";
import {
  type CandidateRun,
  CEILINGS,
  candidateRunOf,
  leaveOneAttackOut,
  loaoTable,
  overCeilings,
  pick,
} from "./loao.ts";
import { figuresOf } from "./report.ts";

/** A run with these recalls and ordinary rates (blocked, reviewed, people blocked). */
const run = (
  name: string,
  recall: Record<string, number>,
  [blocked, reviewed, peopleBlocked] = [0, 0, 0],
): CandidateRun => ({ name, settings: {}, recall, ordinary: { blocked, reviewed, peopleBlocked } });

const ATTACKS = ["farm", "ring", "bot"];
const defaults = run("defaults", { farm: 0.2, ring: 0.2, bot: 0.2 });
// Tuned on the farm alone: great there, nothing new elsewhere.
const farmOnly = run("farm_only", { farm: 0.9, ring: 0.2, bot: 0.2 });
// Broad: a bit better everywhere.
const broad = run("broad", { farm: 0.4, ring: 0.5, bot: 0.5 });
// Catches everything, and blocks 1% of ordinary events.
const greedy = run("greedy", { farm: 1, ring: 1, bot: 1 }, [0.01, 0, 0]);
const RUNS = [defaults, farmOnly, broad, greedy];

describe("pick", () => {
  it.each([
    { name: "the best mean recall within the ceilings", attacks: ATTACKS, picked: "broad" },
    { name: "tuned on the farm alone", attacks: ["farm"], picked: "farm_only" },
    { name: "tuned without the farm", attacks: ["ring", "bot"], picked: "broad" },
    // farm 0.9 + ring 0.2 = 1.1 against broad's 0.9: the farm carries it.
    { name: "farm and ring", attacks: ["farm", "ring"], picked: "farm_only" },
    // No attack to judge: every run scores 0, and the earliest of those costing nothing wins.
    { name: "no attack: ties go to the earliest run", attacks: [], picked: "defaults" },
  ])("$name", ({ attacks, picked }) => {
    expect(pick(RUNS, attacks, CEILINGS)?.name).toBe(picked);
  });

  it.each([
    ["blocked", [0.006, 0, 0], ["blocked"]],
    ["reviewed", [0, 0.021, 0], ["reviewed"]],
    ["people blocked", [0, 0, 0.011], ["peopleBlocked"]],
    ["at the ceilings", [0.005, 0.02, 0.01], []],
  ] as const)("a run over the %s ceiling is never picked", (_name, rates, over) => {
    const costly = run("costly", { farm: 1, ring: 1, bot: 1 }, [...rates]);
    expect(overCeilings(costly, CEILINGS)).toEqual(over);
    expect(pick([defaults, costly], ATTACKS, CEILINGS)?.name).toBe(
      over.length ? "defaults" : "costly",
    );
  });

  it("an equal recall goes to the run that costs ordinary people less", () => {
    const reviews = run("reviews", { farm: 0.4, ring: 0.5, bot: 0.5 }, [0, 0.01, 0]);
    expect(pick([reviews, broad], ATTACKS, CEILINGS)?.name).toBe("broad");
  });

  it("nothing within the ceilings: no pick", () => {
    expect(pick([greedy], ATTACKS, CEILINGS)).toBeNull();
  });
});

describe("leaveOneAttackOut", () => {
  const rows = leaveOneAttackOut(RUNS, defaults, ATTACKS, CEILINGS);

  it.each([
    // Without the farm, broad is picked: the farm's held-out recall is broad's 40%, while
    // broad (picked with every attack) also gives 40%.
    ["farm", "broad", 0.4, 0.2, "broad", 0.4],
    // Without the ring, farm_only wins on farm+bot (1.1 vs 0.9): the ring is left at 20%.
    ["ring", "farm_only", 0.2, 0.2, "broad", 0.5],
    ["bot", "farm_only", 0.2, 0.2, "broad", 0.5],
  ])(
    "held out %s: picked %s, recall %f (defaults %f), tuned with it %s %f",
    (attack, without, heldOut, dflt, withIt, tuned) => {
      expect(rows.find((r) => r.attack === attack)).toEqual({
        attack,
        pickedWithout: without,
        heldOut,
        defaults: dflt,
        pickedWith: withIt,
        tunedWith: tuned,
      });
    },
  );

  it("no candidate within the ceilings: the held-out recall is unknown, not zero", () => {
    const [row] = leaveOneAttackOut([greedy], defaults, ["farm", "ring"], CEILINGS);
    expect(row).toMatchObject({ pickedWithout: null, heldOut: null, tunedWith: null });
    expect(loaoTable([row as NonNullable<typeof row>])).toContain(
      "| farm | none within the ceilings | – | 20.0% |",
    );
  });
});

describe("candidateRunOf", () => {
  const o = (population: string, attack: boolean, decision: Outcome["decision"], actor = "a") =>
    ({
      at: 0,
      population,
      attack,
      payoff: true,
      actor,
      type: "signup",
      decision,
      reasons: [],
      id: "s",
      score: 0,
      signals: {},
    }) as Outcome;
  it("per attack: payoff events blocked or reviewed over its payoff events; an attack not played scores 0", () => {
    const f = figuresOf(
      "c",
      [
        o("farm", true, "block"),
        o("farm", true, "review"),
        o("farm", true, "allow"),
        o("ring", true, "allow"),
        o("home", false, "block", "p1"),
        o("home", false, "allow", "p2"),
      ],
      null,
    );
    expect(candidateRunOf({}, f, ["farm", "ring", "absent"])).toEqual({
      name: "c",
      settings: {},
      recall: { farm: 2 / 3, ring: 0, absent: 0 },
      ordinary: { blocked: 0.5, reviewed: 0, peopleBlocked: 0.5 },
    });
  });
});
