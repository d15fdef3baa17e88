/**
 * An alert and its events in the words the Alerts page shows: what it watches, when it fires,
 * over what window, by which channels, and what each channel answered. Pure.
 */
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import {
  type AlertMetric,
  type AlertView,
  type KeyedSeries,
  SERIES_LABELS,
} from "../../../../shared/schemas/alerts.ts";

/** The metric select's options. */
export const METRIC_LABELS: Record<AlertMetric, string> = {
  block_rate: "Blocks",
  review_rate: "Reviews",
  rule_hits: "One rule's hits",
  series_spike: "Many from one source (network, domain, promo code, amount)",
  review_oldest: "Review queue waiting",
  webhook_failing: "Webhook endpoint failing",
  score_shift: "Mean risk score moving",
};

/** The unit a threshold of the metric is in (series_spike takes none: it is always a spike). */
export const THRESHOLD_UNITS: Record<AlertMetric, string> = {
  block_rate: "%",
  review_rate: "%",
  rule_hits: "hits",
  series_spike: "",
  review_oldest: "hours",
  webhook_failing: "minutes",
  score_shift: "points",
};

/** Metrics measured at a moment, not over a window (the window field means nothing to them). */
const WITHOUT_WINDOW: readonly AlertMetric[] = ["review_oldest", "webhook_failing"];

export const hasWindow = (metric: AlertMetric) => !WITHOUT_WINDOW.includes(metric);

/** The series select's options: "Signups from one network". */
export const seriesLabel = (series: KeyedSeries) => {
  const { one, what } = SERIES_LABELS[series];
  return `${capital(what)} from ${one}`;
};

/** A rule's name as the Rules page shows it. */
export function ruleLabel(rule: string | null): string {
  return RULE_CATALOG.find((entry) => entry.key === rule)?.label ?? rule ?? "a rule";
}

type Watched = Pick<AlertView, "metric" | "mode" | "rule" | "series">;

/** What the alert watches: "the share of screenings blocked", "hits of “Email checks”". */
export function watchedText(alert: Watched): string {
  const spike = alert.mode === "spike";
  switch (alert.metric) {
    case "block_rate":
      return spike ? "blocks" : "the share of screenings blocked";
    case "review_rate":
      return spike ? "screenings sent to review" : "the share of screenings sent to review";
    case "rule_hits":
      return `hits of “${ruleLabel(alert.rule)}”`;
    case "series_spike":
      return alert.series ? seriesLabel(alert.series).toLowerCase() : "one source";
    case "review_oldest":
      return "how long the oldest open review has waited";
    case "webhook_failing":
      return "how long a webhook endpoint has failed every delivery";
    case "score_shift":
      return "how far the mean risk score moved from usual";
  }
}

/** When it fires: "a spike against its baseline", "at 5% or more", "at ±10 points or more". */
export function triggerText(alert: Watched & Pick<AlertView, "threshold">): string {
  if (alert.mode === "spike") return "a spike against its baseline";
  const n = alert.threshold ?? 0;
  const unit = THRESHOLD_UNITS[alert.metric];
  if (unit === "%") return `at ${n}% or more`;
  const amount = `${n} ${n === 1 ? unit.replace(/s$/, "") : unit}`;
  return `at ${alert.metric === "score_shift" ? "±" : ""}${amount} or more`;
}

/** "15 min", "1 h", "1 h 30 min". */
export function minutesText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** The window it is measured over ("over 15 min"), or null for a metric read at a moment. */
export function windowText(alert: Pick<AlertView, "metric" | "window_minutes">): string | null {
  return hasWindow(alert.metric) ? `over ${minutesText(alert.window_minutes)}` : null;
}

/** How long it stays quiet after firing. */
export function cooldownText(minutes: number): string {
  return minutes === 0 ? "no cool-down" : `quiet for ${minutesText(minutes)} after firing`;
}

/** The channels it is sent to, in words: "Email, webhook event, Slack (hooks.slack.com/…XXXX)". */
export function channelsText(
  alert: Pick<AlertView, "email" | "webhook" | "slack_url_hint">,
): string {
  const channels = [
    alert.email && "email",
    alert.webhook && "webhook event",
    alert.slack_url_hint && `Slack (${alert.slack_url_hint})`,
  ].filter((channel): channel is string => Boolean(channel));
  return channels.length === 0 ? "No channel: shown here only" : capital(channels.join(", "));
}

const CHANNEL_NAMES: Record<string, string> = {
  email: "Email",
  webhook: "Webhook",
  slack: "Slack",
};

/** What each channel answered, the channels turned off left out: [["Slack", "sent (HTTP 200)"]]. */
export function deliveredRows(delivered: Record<string, string>): [string, string][] {
  const known = Object.keys(CHANNEL_NAMES);
  const order = (name: string) => (known.includes(name) ? known.indexOf(name) : known.length);
  return Object.entries(delivered)
    .filter(([, answer]) => answer !== "off")
    .sort(([a], [b]) => order(a) - order(b))
    .map(([name, answer]) => [CHANNEL_NAMES[name] ?? name, answer]);
}

export const KIND_LABELS = { fired: "Fired", resolved: "Resolved", test: "Test" } as const;

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
