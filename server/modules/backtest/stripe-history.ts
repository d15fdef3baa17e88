/**
 * The live screening's Stripe-history lookup (refunds and disputes for an email or card since
 * a time), answered from memory for the backtest: the account's refunded or disputed charges,
 * by email and by card, each counted once even when both match.
 */
import type { StripeHistory } from "../../engine/types.ts";
import type { HistoryQuery } from "../screening/screening.repository.ts";

export type HistoryCharge = {
  chargeId: string;
  /** Unix seconds. */
  created: number;
  email: string | null;
  card: string | null;
  refunded: boolean;
  disputed: boolean;
};

export function createStripeHistory(charges: readonly HistoryCharge[]) {
  const byEmail = new Map<string, HistoryCharge[]>();
  const byCard = new Map<string, HistoryCharge[]>();
  const index = (map: Map<string, HistoryCharge[]>, key: string | null, charge: HistoryCharge) => {
    if (!key) return;
    const list = map.get(key);
    if (list) list.push(charge);
    else map.set(key, [charge]);
  };
  for (const charge of charges) {
    index(byEmail, charge.email, charge);
    index(byCard, charge.card, charge);
  }
  return {
    /** As the live query, and only charges that existed at `until` (Unix seconds). */
    lookup(query: HistoryQuery, until: number): StripeHistory {
      const seen = new Set<string>();
      let refunds = 0;
      let disputes = 0;
      const lists = [
        query.email ? byEmail.get(query.email) : undefined,
        query.card ? byCard.get(query.card) : undefined,
      ];
      for (const list of lists) {
        for (const charge of list ?? []) {
          if (charge.created < query.since || charge.created > until) continue;
          if (seen.has(charge.chargeId)) continue;
          seen.add(charge.chargeId);
          if (charge.refunded) refunds += 1;
          if (charge.disputed) disputes += 1;
        }
      }
      return { refunds, disputes };
    },
  };
}

export type StripeHistoryIndex = ReturnType<typeof createStripeHistory>;
