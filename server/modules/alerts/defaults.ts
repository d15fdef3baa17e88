/**
 * The alerts every new account starts with (issue 45: "sensible alerts are on"), and every
 * account that existed before them got from migration baselines_and_alerts. Pure data.
 */
import type { AlertSettings } from "../../../shared/schemas/alerts.ts";

const base = {
  rule: null,
  series: null,
  threshold: null,
  window_minutes: 15,
  cooldown_minutes: 60,
  email: true,
  webhook: true,
  enabled: true,
} as const;

export const DEFAULT_ALERTS: readonly AlertSettings[] = [
  { ...base, name: "Blocks far above usual", metric: "block_rate", mode: "spike" },
  {
    ...base,
    name: "Flagged signups from one network far above usual",
    metric: "series_spike",
    mode: "spike",
    series: "flagged_signup_network",
  },
  {
    ...base,
    name: "Review queue waiting over a day",
    metric: "review_oldest",
    mode: "threshold",
    threshold: 24,
    cooldown_minutes: 1440,
  },
  {
    ...base,
    name: "Webhook endpoint failing for an hour",
    metric: "webhook_failing",
    mode: "threshold",
    threshold: 60,
    cooldown_minutes: 1440,
  },
];

/**
 * The rows of an account's default alerts, as `AlertRule.createMany` takes them: a millisecond
 * apart, so they list in this order.
 */
export function defaultAlertRows(accountId: string, at = new Date()) {
  return DEFAULT_ALERTS.map((a, i) => ({
    accountId,
    createdAt: new Date(at.getTime() + i),
    name: a.name,
    metric: a.metric,
    mode: a.mode,
    rule: a.rule,
    series: a.series,
    threshold: a.threshold,
    windowMinutes: a.window_minutes,
    cooldownMinutes: a.cooldown_minutes,
    email: a.email,
    webhook: a.webhook,
    enabled: a.enabled,
  }));
}
