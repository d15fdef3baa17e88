/** Transaction dashboard use cases: one page of charges (keyset-paginated) and the 30-day summary. */

import { RULE_CATALOG } from "../../../shared/catalog/rules.ts";
import { toMajorUnits } from "../../../shared/currency.ts";
import {
  BLOCKED_BY_LABELS,
  type DashboardPage,
  type DashboardRow,
  type DashboardSummary,
  LIMIT_MAX,
  LIST_LIMIT_DEFAULT,
  SUMMARY_DAYS,
  type TransactionAction,
  ZTransactionAction,
} from "../../../shared/schemas/transaction.ts";
import { decodeCursor, encodeCursor } from "./transaction-cursor.ts";
import type { ListedTransaction, TransactionsRepository } from "./transactions.repository.ts";

export type ListOptions = {
  limit?: number;
  cursor?: string | null;
  outcome?: string;
  riskLevel?: string;
  blockedBy?: "stripe" | "custom_rule" | "none";
  search?: string;
};

/** Stripe charge and payment ids: a search for one is an exact primary-key lookup. */
const CHARGE_ID = /^(ch|py)_[A-Za-z0-9]+$/;
const DAY = 86_400;

export function createTransactionsService(repo: TransactionsRepository, now: () => Date) {
  return {
    async list(accountId: string, options: ListOptions = {}): Promise<DashboardPage> {
      const limit = Math.min(Math.max(options.limit ?? LIST_LIMIT_DEFAULT, 1), LIMIT_MAX);
      const search = options.search?.trim() || undefined;
      const byId = search !== undefined && CHARGE_ID.test(search);
      // One extra row tells whether another page exists without a count.
      const rows = await repo.list({
        accountId,
        limit: limit + 1,
        after: options.cursor ? decodeCursor(options.cursor) : undefined,
        outcome: options.outcome,
        riskLevel: options.riskLevel,
        blockedBy: options.blockedBy,
        chargeId: byId ? search : undefined,
        emailPrefix: byId ? undefined : search,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toDashboardRow),
        nextCursor:
          rows.length > limit && last
            ? encodeCursor({ created: last.created, chargeId: last.chargeId })
            : null,
      };
    },

    /** Totals and charges per UTC day over the last SUMMARY_DAYS days, today included. */
    async summary(accountId: string): Promise<DashboardSummary> {
      const today = Math.floor(now().getTime() / 1000 / DAY);
      const firstDay = today - (SUMMARY_DAYS - 1);
      const buckets = await repo.dayBuckets(accountId, firstDay, today);
      const days = Array.from({ length: SUMMARY_DAYS }, (_, i) => ({
        day: dayLabel(firstDay + i),
        allowed: 0,
        blocked: 0,
      }));
      const refunded = new Map<string, number>();
      for (const bucket of buckets) {
        const entry = days[bucket.day - firstDay];
        if (!entry) continue;
        entry.allowed += bucket.allowed;
        entry.blocked += bucket.blocked;
        if (bucket.refunded > 0) {
          refunded.set(bucket.currency, (refunded.get(bucket.currency) ?? 0) + bucket.refunded);
        }
      }
      const blocked = days.reduce((sum, d) => sum + d.blocked, 0);
      return {
        since: dayLabel(firstDay),
        charges: days.reduce((sum, d) => sum + d.allowed, blocked),
        blocked,
        refunded: [...refunded]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([currency, minor]) => ({ currency, amount: toMajorUnits(minor, currency) })),
        days,
      };
    },
  };
}

function dayLabel(day: number): string {
  return new Date(day * DAY * 1000).toISOString().slice(0, 10);
}

function toDashboardRow(row: ListedTransaction): DashboardRow {
  return {
    id: row.chargeId,
    amount: toMajorUnits(row.amount, row.currency),
    currency: row.currency,
    email: row.email,
    created: row.created,
    outcome: row.outcome,
    // The rule that acted explains the block better than Radar's own reason.
    reason: row.ruleReason || row.outcomeReason || null,
    outcome_risk_level: row.riskLevel,
    outcome_risk_score: row.riskScore,
    blocked_by: row.blockedBy ? BLOCKED_BY_LABELS[row.blockedBy] : null,
    blocked_by_rules: row.blockedBy === "custom_rule" ? row.ruleKeys.map(ruleLabel) : [],
    action: actionOf(row),
    livemode: row.livemode,
    payment_intent: row.paymentIntentId,
  };
}

const RULE_LABELS = new Map<string, string>(RULE_CATALOG.map((rule) => [rule.key, rule.label]));

/** A rule's name; a key no longer in the catalogue reads as itself. */
function ruleLabel(key: string): string {
  return RULE_LABELS.get(key) ?? key;
}

const ACTION_STATUSES = new Set<string>(ZTransactionAction.shape.status.options);

function actionOf(row: ListedTransaction): TransactionAction | null {
  const kind = row.actionKind;
  const status = row.actionStatus;
  if ((kind !== "refund" && kind !== "cancel") || !status || !ACTION_STATUSES.has(status)) {
    return null;
  }
  return { kind, status: status as TransactionAction["status"], error: row.actionError };
}

export type TransactionsService = ReturnType<typeof createTransactionsService>;
