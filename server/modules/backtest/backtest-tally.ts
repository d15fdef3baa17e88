/**
 * What a backtest reports, gathered as the replay goes: counts of decisions that change,
 * per kind ("allow→block", ...), per day and per rule; for charges that would become
 * blocked, how many were refunded or disputed; and the newest changed items, capped.
 */
import type {
  BacktestItem,
  BacktestResult,
  LabelledFigures,
} from "../../../shared/schemas/backtest.ts";
import type { Judged } from "./backtest-replay.ts";

const STRICTNESS = { allow: 0, review: 1, block: 2 } as const;
const DAY_MS = 86_400_000;

type Extra = { id: string; label: string; refunded: boolean; disputed: boolean };
/** What a person, the API or Stripe said an event was (its newest label). */
export type TruthLabel = "fraud" | "legitimate";
type Kept = { kind: BacktestItem["kind"]; judged: Judged; at: number; describe: () => Extra };

/**
 * Keeps the newest `cap` changes of a stream that arrives oldest first, in bounded memory;
 * an item's text is built only for those kept (most changes of a big replay are not).
 */
function newest(cap: number) {
  const ring: (Kept | undefined)[] = new Array(cap);
  let next = 0;
  let size = 0;
  return {
    push(kind: BacktestItem["kind"], judged: Judged, at: number, describe: () => Extra) {
      ring[next] = { kind, judged, at, describe };
      next = (next + 1) % cap;
      size = Math.min(size + 1, cap);
    },
    list(): BacktestItem[] {
      const items: BacktestItem[] = [];
      for (let i = 1; i <= size; i++) {
        const kept = ring[(next - i + cap) % cap];
        if (!kept) continue;
        const extra = kept.describe();
        items.push({
          kind: kept.kind,
          id: extra.id,
          at: new Date(kept.at).toISOString(),
          label: extra.label,
          from: kept.judged.from,
          to: kept.judged.to,
          reasons: kept.judged.reasons,
          refunded: extra.refunded,
          disputed: extra.disputed,
        });
      }
      return items;
    },
  };
}

export function createTally(cap: number) {
  const screenings = { total: 0, changes: {} as Record<string, number> };
  const charges = {
    total: 0,
    /** Charges in the window the rules never act on (failed, pending): counted, not judged. */
    notJudged: 0,
    changes: {} as Record<string, number>,
    newlyBlocked: 0,
    newlyBlockedRefunded: 0,
    newlyBlockedDisputed: 0,
    newlyBlockedRefundedOrDisputed: 0,
  };
  // UTC day number → counts (the ISO day is made once, for the result).
  const byDay = new Map<number, { block: number; review: number; allow: number }>();
  const byRule: Record<string, number> = {};
  const chargeItems = newest(cap);
  const screeningItems = newest(cap);
  let changed = 0;
  const labelled = {
    total: { fraud: 0, legitimate: 0 },
    block: { fraud: 0, legitimate: 0 },
    review: { fraud: 0, legitimate: 0 },
    allow: { fraud: 0, legitimate: 0 },
  };

  /**
   * `at` is the item's time (epoch ms); `describe` is called only for the newest `cap`
   * changes of each kind, and for a charge that becomes blocked (its refund and dispute).
   */
  function record(
    kind: BacktestItem["kind"],
    judged: Judged,
    at: number,
    describe: () => Extra,
    truth?: TruthLabel,
  ) {
    const target = kind === "charge" ? charges : screenings;
    target.total += 1;
    if (truth) {
      labelled.total[truth] += 1;
      labelled[judged.to][truth] += 1;
    }
    if (judged.from === judged.to) return;
    changed += 1;
    const key = `${judged.from}→${judged.to}`;
    target.changes[key] = (target.changes[key] ?? 0) + 1;
    const day = Math.floor(at / DAY_MS);
    let perDay = byDay.get(day);
    if (!perDay) {
      perDay = { block: 0, review: 0, allow: 0 };
      byDay.set(day, perDay);
    }
    perDay[judged.to] += 1;
    if (STRICTNESS[judged.to] > STRICTNESS[judged.from]) {
      for (const reason of judged.reasons) byRule[reason.rule] = (byRule[reason.rule] ?? 0) + 1;
    }
    if (kind === "charge" && judged.to === "block") {
      const extra = describe();
      charges.newlyBlocked += 1;
      if (extra.refunded) charges.newlyBlockedRefunded += 1;
      if (extra.disputed) charges.newlyBlockedDisputed += 1;
      if (extra.refunded || extra.disputed) charges.newlyBlockedRefundedOrDisputed += 1;
    }
    (kind === "charge" ? chargeItems : screeningItems).push(kind, judged, at, describe);
  }

  return {
    record,
    /** Counts `n` charges the rules never act on, so the total is the dashboard's. */
    notJudged(n: number) {
      charges.total += n;
      charges.notJudged += n;
    },
    result(window: { from: Date; to: Date }, tookMs: number): BacktestResult {
      return {
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        screenings,
        charges,
        byDay: [...byDay]
          .sort(([a], [b]) => a - b)
          .map(([day, n]) => ({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), ...n })),
        byRule,
        items: [...chargeItems.list(), ...screeningItems.list()],
        changed,
        labelled: figuresOf(labelled),
        tookMs: Math.round(tookMs),
      };
    },
  };
}

/** Precision and recall from the labelled counts; null when nothing is labelled. */
export function figuresOf(
  counts: Omit<LabelledFigures, "precision" | "recall" | "recallWithReview">,
): LabelledFigures | null {
  const { total, block, review } = counts;
  if (total.fraud + total.legitimate === 0) return null;
  const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  return {
    ...counts,
    precision: share(block.fraud, block.fraud + block.legitimate),
    recall: share(block.fraud, total.fraud),
    recallWithReview: share(block.fraud + review.fraud, total.fraud),
  };
}
