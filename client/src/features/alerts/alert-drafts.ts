/**
 * The add/edit form's state and what it sends: numbers typed as text, the rule or series only
 * where the metric takes one, the mode the metric allows, and a Slack URL left blank on an
 * edit kept as stored (never sent back in full, so the form cannot show it). Pure.
 */
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import {
  type AlertInput,
  type AlertMetric,
  type AlertMode,
  type AlertView,
  KEYED_SERIES,
  type KeyedSeries,
  SPIKE_METRICS,
} from "../../../../shared/schemas/alerts.ts";
import { RULE_KEYS, type RuleKey } from "../../../../shared/schemas/rules.ts";

export type AlertDraft = {
  name: string;
  metric: AlertMetric;
  mode: AlertMode;
  rule: RuleKey;
  series: KeyedSeries;
  threshold: string;
  window_minutes: string;
  cooldown_minutes: string;
  email: boolean;
  webhook: boolean;
  /** A new Slack URL; blank keeps the stored one on an edit. */
  slack_url: string;
  /** On an edit, removes the stored Slack URL. */
  remove_slack: boolean;
  enabled: boolean;
};

const FIRST_RULE = RULE_CATALOG[0]?.key ?? RULE_KEYS[0];

export const NEW_DRAFT: AlertDraft = {
  name: "",
  metric: "block_rate",
  mode: "spike",
  rule: FIRST_RULE as RuleKey,
  series: "signup_network",
  threshold: "",
  window_minutes: "15",
  cooldown_minutes: "60",
  email: true,
  webhook: true,
  slack_url: "",
  remove_slack: false,
  enabled: true,
};

/** The modes `metric` may take: a spike only for series_spike, a threshold only without a baseline. */
export function modesOf(metric: AlertMetric): AlertMode[] {
  if (metric === "series_spike") return ["spike"];
  return SPIKE_METRICS.includes(metric) ? ["threshold", "spike"] : ["threshold"];
}

/** The draft with another metric, its mode moved to one that metric allows. */
export function withMetric(draft: AlertDraft, metric: AlertMetric): AlertDraft {
  const modes = modesOf(metric);
  return {
    ...draft,
    metric,
    mode: modes.includes(draft.mode) ? draft.mode : (modes[0] ?? "threshold"),
  };
}

const isRule = (rule: string | null): rule is RuleKey =>
  rule !== null && (RULE_KEYS as readonly string[]).includes(rule);

/** The form filled in from a stored alert (the Slack URL blank: kept unless typed again). */
export function draftOf(alert: AlertView): AlertDraft {
  return {
    name: alert.name,
    metric: alert.metric,
    mode: alert.mode,
    rule: isRule(alert.rule) ? alert.rule : NEW_DRAFT.rule,
    series: alert.series && KEYED_SERIES.includes(alert.series) ? alert.series : NEW_DRAFT.series,
    threshold: alert.threshold === null ? "" : String(alert.threshold),
    window_minutes: String(alert.window_minutes),
    cooldown_minutes: String(alert.cooldown_minutes),
    email: alert.email,
    webhook: alert.webhook,
    slack_url: "",
    remove_slack: false,
    enabled: alert.enabled,
  };
}

/** A number typed in a field; blank or not a number is NaN, which the schema calls "must be a number". */
const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/** What the form sends: `editing` leaves a blank Slack URL out, so the stored one is kept. */
export function inputOf(draft: AlertDraft, editing: boolean): AlertInput {
  const slack = draft.slack_url.trim();
  const slack_url = editing
    ? draft.remove_slack
      ? null
      : slack === ""
        ? undefined
        : slack
    : slack === ""
      ? null
      : slack;
  return {
    name: draft.name,
    metric: draft.metric,
    mode: draft.mode,
    rule: draft.metric === "rule_hits" ? draft.rule : null,
    series: draft.metric === "series_spike" ? draft.series : null,
    threshold:
      draft.mode === "spike"
        ? null
        : draft.threshold.trim() === ""
          ? null
          : numberOf(draft.threshold),
    window_minutes: numberOf(draft.window_minutes),
    cooldown_minutes: numberOf(draft.cooldown_minutes),
    email: draft.email,
    webhook: draft.webhook,
    ...(slack_url === undefined ? {} : { slack_url }),
    enabled: draft.enabled,
  };
}

/** A stored alert switched on or off, everything else (its Slack URL too) as stored. */
export function switched(alert: AlertView, enabled: boolean): AlertInput {
  return inputOf({ ...draftOf(alert), enabled }, true);
}

/** Field errors by the form's field names: an update's issues come as "alert.threshold". */
export function formErrors(issues: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(issues).map(([path, message]) => [path.replace(/^alert\./, ""), message]),
  );
}
