/**
 * What a backtest reports, gathered as the replay goes: counts of decisions that change,
 * per kind ("allow→block", ...), per day and per rule; for charges that would become
 * blocked, how many were refunded or disputed; and the newest changed items, capped.
 */
import type { BacktestItem, BacktestResult } from "../../../shared/schemas/backtest.ts";
import type { Judged } from "./backtest-replay.ts";

const STRICTNESS = { allow: 0, review: 1, block: 2 } as const;

type Extra = { id: string; at: Date; label: string; refunded: boolean; disputed: boolean };

/** Keeps the newest `cap` items of a stream that arrives oldest first, in bounded memory. */
function newest(cap: number) {
  let items: BacktestItem[] = [];
  return {
    push(item: BacktestItem) {
      items.push(item);
      if (items.length >= cap * 2) items = items.slice(-cap);
    },
    list: () => items.slice(-cap).reverse(),
  };
}

export function createTally(cap: number) {
  const screenings = { total: 0, changes: {} as Record<string, number> };
  const charges = {
    total: 0,
    changes: {} as Record<string, number>,
    newlyBlocked: 0,
    newlyBlockedRefunded: 0,
    newlyBlockedDisputed: 0,
    newlyBlockedRefundedOrDisputed: 0,
  };
  const byDay = new Map<string, { block: number; review: number; allow: number }>();
  const byRule: Record<string, number> = {};
  const chargeItems = newest(cap);
  const screeningItems = newest(cap);
  let changed = 0;

  /** `describe` is called only for a changed decision (most events keep theirs). */
  function record(kind: BacktestItem["kind"], judged: Judged, describe: () => Extra) {
    const target = kind === "charge" ? charges : screenings;
    target.total += 1;
    if (judged.from === judged.to) return;
    const extra = describe();
    changed += 1;
    const key = `${judged.from}→${judged.to}`;
    target.changes[key] = (target.changes[key] ?? 0) + 1;
    const day = extra.at.toISOString().slice(0, 10);
    const perDay = byDay.get(day) ?? { block: 0, review: 0, allow: 0 };
    perDay[judged.to] += 1;
    byDay.set(day, perDay);
    if (STRICTNESS[judged.to] > STRICTNESS[judged.from]) {
      for (const reason of judged.reasons) byRule[reason.rule] = (byRule[reason.rule] ?? 0) + 1;
    }
    if (kind === "charge" && judged.to === "block") {
      charges.newlyBlocked += 1;
      if (extra.refunded) charges.newlyBlockedRefunded += 1;
      if (extra.disputed) charges.newlyBlockedDisputed += 1;
      if (extra.refunded || extra.disputed) charges.newlyBlockedRefundedOrDisputed += 1;
    }
    (kind === "charge" ? chargeItems : screeningItems).push({
      kind,
      id: extra.id,
      at: extra.at.toISOString(),
      label: extra.label,
      from: judged.from,
      to: judged.to,
      reasons: judged.reasons,
      refunded: extra.refunded,
      disputed: extra.disputed,
    });
  }

  return {
    record,
    result(window: { from: Date; to: Date }, tookMs: number): BacktestResult {
      return {
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        screenings,
        charges,
        byDay: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, n]) => ({ day, ...n })),
        byRule,
        items: [...chargeItems.list(), ...screeningItems.list()],
        changed,
        tookMs: Math.round(tookMs),
      };
    },
  };
}
