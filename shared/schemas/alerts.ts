/**
 * Alerts a merchant sets (issue 45): on a series of the account's own traffic, against a plain
 * threshold or against the same hours of the weeks before (a spike). Delivered by email, as a
 * signed `alert.fired` webhook event and to a Slack-compatible incoming-webhook URL.
 */
import { z } from "zod";
import { RULE_KEYS } from "./rules.ts";
import { storableString, uuidString } from "./storable.ts";

/**
 * What an alert watches:
 * - `block_rate`, `review_rate`: the share of screenings blocked (sent to review) in the window
 *   (threshold: a percentage), or the number of them against the baseline (spike);
 * - `rule_hits`: one rule's hits in the window (threshold: a count; or a spike);
 * - `series_spike`: one key of a keyed series (one network's signups, one promo code's
 *   redemptions, ...) against that key's own baseline;
 * - `review_oldest`: how long the review queue's oldest open item has waited (hours);
 * - `webhook_failing`: how long a webhook endpoint has failed every delivery (minutes);
 * - `score_shift`: how far the window's mean score moved from the same hours before (points).
 */
export const ALERT_METRICS = [
  "block_rate",
  "review_rate",
  "rule_hits",
  "series_spike",
  "review_oldest",
  "webhook_failing",
  "score_shift",
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/** The keyed series a `series_spike` alert may watch (server/modules/baselines/series.ts). */
export const KEYED_SERIES = [
  "signup_network",
  "flagged_signup_network",
  "signup_domain",
  "promo",
  "checkout_amount",
] as const;
export type KeyedSeries = (typeof KEYED_SERIES)[number];

export const SERIES_LABELS: Record<KeyedSeries, { one: string; what: string }> = {
  signup_network: { one: "one network", what: "signups" },
  flagged_signup_network: { one: "one network", what: "signups blocked or sent to review" },
  signup_domain: { one: "one email domain", what: "signups" },
  promo: { one: "one promo code", what: "redemptions" },
  checkout_amount: { one: "one amount", what: "checkouts" },
};

/** Metrics that may be compared with their baseline; the others take a threshold only. */
export const SPIKE_METRICS: readonly AlertMetric[] = [
  "block_rate",
  "review_rate",
  "rule_hits",
  "series_spike",
];
/** Metrics compared with a threshold; `series_spike` is always a spike. */
export const THRESHOLD_METRICS: readonly AlertMetric[] = ALERT_METRICS.filter(
  (m) => m !== "series_spike",
);

export const ALERT_MODES = ["threshold", "spike"] as const;
export type AlertMode = (typeof ALERT_MODES)[number];

/** The window is a whole number of the rollup's 5-minute buckets. */
export const BUCKET_MINUTES = 5;
export const MAX_ALERTS = 50;

const windowMinutes = z
  .number({ message: "must be a number" })
  .int("must be a whole number")
  .min(5, "must be at least 5")
  .max(1440, "must be at most 1440")
  .refine((n) => n % BUCKET_MINUTES === 0, { message: "must be a multiple of 5" });

export const ZAlertInput = z
  .strictObject({
    name: storableString()
      .trim()
      .min(1, "must not be empty")
      .max(80, "must be at most 80 characters"),
    metric: z.enum(ALERT_METRICS, { message: `must be one of ${ALERT_METRICS.join(", ")}` }),
    mode: z.enum(ALERT_MODES, { message: "must be threshold or spike" }).default("threshold"),
    /** The rule of `rule_hits`. */
    rule: z.enum(RULE_KEYS, { message: "must be a rule key" }).nullable().default(null),
    /** The keyed series of `series_spike`. */
    series: z
      .enum(KEYED_SERIES, { message: `must be one of ${KEYED_SERIES.join(", ")}` })
      .nullable()
      .default(null),
    /** In the metric's unit (%, count, hours, minutes, points); unused by a spike. */
    threshold: z
      .number({ message: "must be a number" })
      .min(0, "must be at least 0")
      .max(1_000_000, "must be at most 1000000")
      .nullable()
      .default(null),
    window_minutes: windowMinutes.default(15),
    cooldown_minutes: z
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(10_080, "must be at most 10080 (a week)")
      .default(60),
    email: z.boolean({ message: "must be true or false" }).default(true),
    webhook: z.boolean({ message: "must be true or false" }).default(true),
    /**
     * A Slack-compatible incoming-webhook URL; null or "" for none. On update, absent keeps the
     * stored one (it is never sent back in full).
     */
    slack_url: storableString()
      .trim()
      .max(2048, "must be at most 2048 characters")
      .refine((v) => v === "" || URL.canParse(v), { message: "must be an absolute URL" })
      .nullable()
      .optional(),
    enabled: z.boolean({ message: "must be true or false" }).default(true),
  })
  .superRefine((a, ctx) => {
    if (a.metric === "rule_hits" && !a.rule) {
      ctx.addIssue({ code: "custom", path: ["rule"], message: "must name the rule to watch" });
    }
    if (a.metric === "series_spike") {
      if (a.window_minutes > 60) {
        ctx.addIssue({
          code: "custom",
          path: ["window_minutes"],
          message: "must be at most 60 for series_spike (one key's burst)",
        });
      }
      if (!a.series) {
        ctx.addIssue({
          code: "custom",
          path: ["series"],
          message: "must name the series to watch",
        });
      }
      if (a.mode !== "spike") {
        ctx.addIssue({ code: "custom", path: ["mode"], message: "must be spike for series_spike" });
      }
    }
    if (a.mode === "spike" && !SPIKE_METRICS.includes(a.metric)) {
      ctx.addIssue({
        code: "custom",
        path: ["mode"],
        message: `must be threshold for ${a.metric}`,
      });
    }
    if (a.mode === "threshold" && a.threshold === null) {
      ctx.addIssue({ code: "custom", path: ["threshold"], message: "must be set for a threshold" });
    }
    if (
      a.mode === "threshold" &&
      a.threshold !== null &&
      (a.metric === "block_rate" || a.metric === "review_rate") &&
      a.threshold > 100
    ) {
      ctx.addIssue({ code: "custom", path: ["threshold"], message: "must be at most 100 (%)" });
    }
  });
export type AlertInput = z.input<typeof ZAlertInput>;
export type AlertSettings = z.output<typeof ZAlertInput>;

export const ZAlertUpdate = z.strictObject({ id: uuidString(), alert: ZAlertInput });
export const ZAlertRef = z.strictObject({ id: uuidString() });

export const ZAlertView = z.object({
  id: z.string(),
  name: z.string(),
  metric: z.enum(ALERT_METRICS),
  mode: z.enum(ALERT_MODES),
  rule: z.string().nullable(),
  series: z.enum(KEYED_SERIES).nullable(),
  threshold: z.number().nullable(),
  window_minutes: z.number().int(),
  cooldown_minutes: z.number().int(),
  email: z.boolean(),
  webhook: z.boolean(),
  /** The Slack URL's host and last characters only (a secret: never sent back in full). */
  slack_url_hint: z.string().nullable(),
  enabled: z.boolean(),
  /** Firing now (fired and not yet resolved). */
  firing: z.boolean(),
  last_fired_at: z.string().nullable(),
  created_at: z.string(),
});
export type AlertView = z.infer<typeof ZAlertView>;

/** One point of the chart kept with an alert event: a bucket's value and its usual value. */
export const ZAlertPoint = z.object({
  at: z.string(),
  value: z.number(),
  usual: z.number().nullable(),
});
export type AlertPoint = z.infer<typeof ZAlertPoint>;

export const ZAlertEventView = z.object({
  id: z.string(),
  alert_id: z.string().nullable(),
  alert_name: z.string(),
  kind: z.enum(["fired", "resolved", "test"]),
  at: z.string(),
  value: z.number(),
  usual: z.number().nullable(),
  message: z.string(),
  /** The series around the moment, 5-minute buckets (empty for metrics without one). */
  points: z.array(ZAlertPoint),
  /** What each channel answered: sent, queued, or the failure. */
  delivered: z.record(z.string(), z.string()),
});
export type AlertEventView = z.infer<typeof ZAlertEventView>;

export const ZAlertEvents = z.object({ events: z.array(ZAlertEventView) });
