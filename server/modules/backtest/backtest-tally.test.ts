/** The tally keeps exact totals and only the newest changes, described only when kept. */
import { describe, expect, it } from "vitest";
import type { Judged } from "./backtest-replay.ts";
import { createTally } from "./backtest-tally.ts";

const DAY = 86_400_000;
const T = Date.UTC(2026, 10, 20, 23, 59, 59, 999);
const blocked: Judged = {
  from: "allow",
  to: "block",
  reasons: [{ rule: "rule_ip", action: "block", message: "m", observed: 1, limit: 0 }],
};
const same: Judged = { from: "allow", to: "allow", reasons: [] };

describe("backtest tally", () => {
  it("keeps the newest changes of each kind, newest first, describing only those", () => {
    const tally = createTally(2);
    const described: string[] = [];
    const describe = (id: string) => () => {
      described.push(id);
      return { id, label: `label ${id}`, refunded: false, disputed: false };
    };
    for (const n of [1, 2, 3, 4, 5]) {
      tally.record("screening", blocked, T + n, describe(`s${n}`));
      tally.record("screening", same, T + n, describe(`same${n}`));
    }
    expect(described).toEqual([]);
    const result = tally.result({ from: new Date(T - DAY), to: new Date(T + DAY) }, 1);
    expect(result.screenings).toEqual({ total: 10, changes: { "allow→block": 5 } });
    expect(result.changed).toBe(5);
    expect(result.items.map((item) => [item.id, item.label, item.at])).toEqual([
      ["s5", "label s5", new Date(T + 5).toISOString()],
      ["s4", "label s4", new Date(T + 4).toISOString()],
    ]);
    expect(described.sort()).toEqual(["s4", "s5"]);
    expect(result.byRule).toEqual({ rule_ip: 5 });
  });

  it("counts per UTC day, and refunds of charges it would newly block", () => {
    const tally = createTally(10);
    const charge = (refunded: boolean, disputed: boolean) => () => ({
      id: "ch",
      label: "c",
      refunded,
      disputed,
    });
    tally.record("charge", blocked, T, charge(true, false));
    tally.record("charge", blocked, T + 1, charge(false, true));
    tally.record("charge", blocked, T + 2, charge(false, false));
    const result = tally.result({ from: new Date(T - DAY), to: new Date(T + DAY) }, 1);
    expect(result.byDay).toEqual([
      { day: "2026-11-20", block: 1, review: 0, allow: 0 },
      { day: "2026-11-21", block: 2, review: 0, allow: 0 },
    ]);
    expect(result.charges).toMatchObject({
      total: 3,
      newlyBlocked: 3,
      newlyBlockedRefunded: 1,
      newlyBlockedDisputed: 1,
      newlyBlockedRefundedOrDisputed: 2,
    });
  });
});
