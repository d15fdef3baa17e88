/**
 * "Test on history": the settings on the Rules page (saved or not) and how many days back to
 * try them, and what the backtest answers. The settings use the same schemas as their own
 * PUTs, so a bad value is a 400 naming the same field.
 */
import { z } from "zod";
import { ZBlocklist } from "./blocklist.ts";
import { ZRuleSettingsUpdate } from "./rule-settings.ts";
import { ZRules } from "./rules.ts";
import { ZTemplates } from "./templates.ts";

export const BACKTEST_MAX_DAYS = 90;

export const ZBacktestInput = z.strictObject({
  rules: ZRules,
  templates: ZTemplates,
  rule_settings: ZRuleSettingsUpdate,
  blocklist: ZBlocklist,
  days: z
    .number({ message: `must be a whole number of days from 1 to ${BACKTEST_MAX_DAYS}` })
    .int(`must be a whole number of days from 1 to ${BACKTEST_MAX_DAYS}`)
    .min(1, `must be a whole number of days from 1 to ${BACKTEST_MAX_DAYS}`)
    .max(BACKTEST_MAX_DAYS, `must be a whole number of days from 1 to ${BACKTEST_MAX_DAYS}`),
  /**
   * The Rules page's description of the unsaved changes it ran with ("Signup velocity
   * (Signups per IP per hour 1)"), kept with the job so the page still says which settings
   * were tried after a reload. Shown back only to the account that started the job.
   */
  unsaved: z
    .array(z.string().max(300, "must be at most 300 characters each"))
    .max(40, "must list at most 40 changes")
    .default([]),
});
export type BacktestInput = z.input<typeof ZBacktestInput>;
export type BacktestSettings = z.output<typeof ZBacktestInput>;

const ZDecision = z.enum(["allow", "review", "block"]);
const ZReason = z.object({
  rule: z.string(),
  action: z.string(),
  message: z.string(),
  observed: z.union([z.string(), z.number()]).nullable(),
  limit: z.union([z.string(), z.number()]).nullable(),
});

/** One screening or charge whose decision would change. */
export const ZBacktestItem = z.object({
  kind: z.enum(["screening", "charge"]),
  id: z.string(),
  at: z.string(),
  /** What it was: the event type and email, or the charge's email and amount. */
  label: z.string(),
  from: ZDecision,
  to: ZDecision,
  reasons: z.array(ZReason),
  refunded: z.boolean(),
  disputed: z.boolean(),
});
export type BacktestItem = z.infer<typeof ZBacktestItem>;

/** Counts of decisions that change, keyed "from→to" (e.g. "allow→block"). */
const ZChanges = z.record(z.string(), z.number());

const ZByLabel = z.object({ fraud: z.number(), legitimate: z.number() });

/**
 * How the tried settings judge what people (or Stripe) labelled, when labels exist: the newest
 * label of each screening and charge in the window, by the decision it would now get.
 */
export const ZLabelledFigures = z.object({
  total: ZByLabel,
  block: ZByLabel,
  review: ZByLabel,
  allow: ZByLabel,
  /** Of the labelled events that would be blocked, the share labelled fraud; null: none. */
  precision: z.number().nullable(),
  /** Of the events labelled fraud, the share that would be blocked; null: none labelled. */
  recall: z.number().nullable(),
  /** The same, counting a review as caught. */
  recallWithReview: z.number().nullable(),
});
export type LabelledFigures = z.infer<typeof ZLabelledFigures>;

export const ZBacktestResult = z.object({
  from: z.string(),
  to: z.string(),
  screenings: z.object({ total: z.number(), changes: ZChanges }),
  charges: z.object({
    /** Every charge in the window, as the dashboard counts them (decision 010). */
    total: z.number(),
    /** Of them, the ones the rules never act on (failed, pending): counted, not judged. */
    notJudged: z.number(),
    changes: ZChanges,
    /** Charges that would become blocked, and of those, how many were later refunded or disputed. */
    newlyBlocked: z.number(),
    newlyBlockedRefunded: z.number(),
    newlyBlockedDisputed: z.number(),
    newlyBlockedRefundedOrDisputed: z.number(),
  }),
  /** Changes per day (UTC): how many would become block, review, allow. */
  byDay: z.array(
    z.object({ day: z.string(), block: z.number(), review: z.number(), allow: z.number() }),
  ),
  /** How often each rule is a reason for a changed decision. */
  byRule: z.record(z.string(), z.number()),
  /** Changed charges first (newest first), then changed screenings; capped, see `listed`. */
  items: z.array(ZBacktestItem),
  changed: z.number(),
  /** Null when nothing in the window is labelled. */
  labelled: ZLabelledFigures.nullable(),
  tookMs: z.number(),
});
export type BacktestResult = z.infer<typeof ZBacktestResult>;

export const ZBacktestJob = z
  .object({
    id: z.string(),
    status: z.enum(["running", "done", "failed", "cancelled"]),
    days: z.number(),
    processed: z.number(),
    total: z.number(),
    startedAt: z.string(),
    /** When it ended (done, failed or cancelled); null while it runs. */
    finishedAt: z.string().nullable(),
    /**
     * When the account's settings (rules, templates, rule settings, block list) were last
     * saved as the job started: the page's settings were those, plus `unsaved`. Null: never.
     */
    settingsSavedAt: z.string().nullable(),
    /** Settings were saved since the job started: its result no longer says what they do. */
    settingsChanged: z.boolean(),
    /** The unsaved changes the job ran with, as the page described them (empty: saved). */
    unsaved: z.array(z.string()),
    error: z.string().nullable(),
    result: ZBacktestResult.nullable(),
  })
  .nullable();
export type BacktestJob = z.infer<typeof ZBacktestJob>;

export const BACKTEST_ITEM_CAP = 500;
