/**
 * A transaction (spec §3) as the dashboard and GET /api/dashboard show it: one Stripe charge,
 * amount in major units, with what Radar and the merchant's rules made of it.
 */
import { z } from "zod";
import { storableString } from "./storable.ts";

/** The outcome a merchant sees; derived once by outcomeOf() in server/modules/stripe/charge-state.ts. */
export const OUTCOMES = [
  "succeeded",
  "authorized",
  "pending",
  "failed",
  "blocked",
  "refunded",
  "disputed",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Radar's risk levels; Stripe may add more, so stored values are not restricted to these. */
export const RISK_LEVELS = ["normal", "elevated", "highest", "not_assessed", "unknown"] as const;

/** Who blocked a charge, as the API names it (spec §4). */
export const BLOCKED_BY_LABELS = { stripe: "Stripe", custom_rule: "Custom Rule" } as const;
export type BlockedByKey = keyof typeof BLOCKED_BY_LABELS;
/** The blocked-by filter: one of the two blockers, or "none" for charges nobody blocked. */
export const BLOCKED_BY_FILTERS = ["stripe", "custom_rule", "none"] as const;

/** The spec's wire object, exactly the fields GET /api/dashboard returns. */
export const ZTransaction = z.object({
  id: z.string(),
  amount: z.number(),
  currency: z.string(),
  email: z.string().nullable(),
  created: z.number().int(),
  outcome: z.string(),
  reason: z.string().nullable(),
  outcome_risk_level: z.string().nullable(),
  outcome_risk_score: z.number().nullable(),
  blocked_by: z.enum(["Stripe", "Custom Rule"]).nullable(),
});
export type Transaction = z.infer<typeof ZTransaction>;

/** The Stripe call Warden made about a charge (refund or PaymentIntent cancel), if any. */
export const ZTransactionAction = z.object({
  kind: z.enum(["refund", "cancel"]),
  status: z.enum(["pending", "done", "failed", "needs_attention"]),
  error: z.string().nullable(),
});
export type TransactionAction = z.infer<typeof ZTransactionAction>;

/** A dashboard row: the wire object plus what the console needs to link and explain it. */
export const ZDashboardRow = ZTransaction.extend({
  /**
   * The names of the rules whose block acted on the charge (shared/catalog/rules.ts), beside
   * blocked_by "Custom Rule"; empty otherwise, and for charges acted on before this was kept.
   */
  blocked_by_rules: z.array(z.string()),
  action: ZTransactionAction.nullable(),
  livemode: z.boolean(),
  payment_intent: z.string().nullable(),
});
export type DashboardRow = z.infer<typeof ZDashboardRow>;

/** Picks the spec's fields from a dashboard row (GET /api/dashboard returns only these). */
export function toSpecTransaction(row: DashboardRow): Transaction {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    email: row.email,
    created: row.created,
    outcome: row.outcome,
    reason: row.reason,
    outcome_risk_level: row.outcome_risk_level,
    outcome_risk_score: row.outcome_risk_score,
    blocked_by: row.blocked_by,
  };
}

export const LIST_LIMIT_DEFAULT = 50;
export const API_LIMIT_DEFAULT = 100;
export const LIMIT_MAX = 1000;
const limitMessage = `limit must be a whole number from 1 to ${LIMIT_MAX}.`;
const ZLimit = z
  .number({ message: limitMessage })
  .int(limitMessage)
  .min(1, limitMessage)
  .max(LIMIT_MAX, limitMessage);

/**
 * The dashboard's filters; each one narrows, absent means "any". Not strict: react-query's
 * infinite queries add their own `direction` to the input.
 */
export const ZDashboardFilters = z.object({
  outcome: z.enum(OUTCOMES).optional(),
  riskLevel: storableString().trim().min(1).max(40).optional(),
  blockedBy: z.enum(BLOCKED_BY_FILTERS).optional(),
  /** An exact charge id (ch_…, py_…), else the start of an email, case-insensitive. */
  search: storableString().trim().max(200).optional(),
});
export type DashboardFilters = z.infer<typeof ZDashboardFilters>;

export const ZDashboardListInput = ZDashboardFilters.extend({
  limit: ZLimit.default(LIST_LIMIT_DEFAULT),
  /** Opaque, from a previous page's nextCursor. */
  cursor: z.string().max(500).nullish(),
});
export type DashboardListInput = z.input<typeof ZDashboardListInput>;

export const ZDashboardPage = z.object({
  items: z.array(ZDashboardRow),
  nextCursor: z.string().nullable(),
});
export type DashboardPage = z.infer<typeof ZDashboardPage>;

/** GET /api/dashboard?limit=: query strings carry text, so the number is read from it. */
export const ZDashboardApiQuery = z.object({
  limit: z
    .string()
    .optional()
    .transform((raw) =>
      raw === undefined ? API_LIMIT_DEFAULT : raw.trim() === "" ? NaN : Number(raw),
    )
    .pipe(ZLimit),
});

export const SUMMARY_DAYS = 30;

export const ZDashboardSummary = z.object({
  /** First day of the window, YYYY-MM-DD (UTC); totals and days cover the same window. */
  since: z.string(),
  charges: z.number().int(),
  blocked: z.number().int(),
  /** Amount refunded, in major units, one entry per currency that had refunds. */
  refunded: z.array(z.object({ currency: z.string(), amount: z.number() })),
  /** One entry per UTC day, oldest first, SUMMARY_DAYS long. */
  days: z.array(
    z.object({ day: z.string(), allowed: z.number().int(), blocked: z.number().int() }),
  ),
});
export type DashboardSummary = z.infer<typeof ZDashboardSummary>;
