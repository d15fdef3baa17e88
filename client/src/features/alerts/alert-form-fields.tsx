/**
 * The alert form's fields: what to watch (a metric; the rule or the series where the metric
 * takes one; a threshold in the metric's unit or a spike; the window and the cool-down), and
 * where to send it (email, a webhook event, a Slack URL whose stored value shows as its hint
 * and is kept when the field is left blank).
 */
import type { ReactNode } from "react";
import { RULE_CATALOG } from "../../../../shared/catalog/rules.ts";
import {
  ALERT_METRICS,
  type AlertMetric,
  type AlertMode,
  KEYED_SERIES,
  type KeyedSeries,
} from "../../../../shared/schemas/alerts.ts";
import type { RuleKey } from "../../../../shared/schemas/rules.ts";
import { type AlertDraft, modesOf } from "./alert-drafts.ts";
import { hasWindow, METRIC_LABELS, seriesLabel, THRESHOLD_UNITS } from "./alert-format.ts";

const MODE_LABELS: Record<AlertMode, string> = {
  threshold: "Past a threshold",
  spike: "A spike against its baseline",
};

export type FieldsProps = {
  draft: AlertDraft;
  set: <K extends keyof AlertDraft>(field: K, value: AlertDraft[K]) => void;
  /** Another metric, the mode moved to one it allows. */
  setMetric: (metric: AlertMetric) => void;
  /** The field's error under it ("Threshold must be at least 0"), or nothing. */
  fieldError: (field: string, label: string) => ReactNode;
  /** The id describing the field: its error, else its hint. */
  described: (field: string, hint?: string) => string | undefined;
};

export function WatchFields({ draft, set, setMetric, fieldError, described }: FieldsProps) {
  const unit = THRESHOLD_UNITS[draft.metric];
  const modes = modesOf(draft.metric);
  return (
    <div className="al-grid">
      <label>
        Watch
        <select
          name="alert_metric"
          value={draft.metric}
          onChange={(e) => setMetric(e.target.value as AlertMetric)}
        >
          {ALERT_METRICS.map((metric) => (
            <option key={metric} value={metric}>
              {METRIC_LABELS[metric]}
            </option>
          ))}
        </select>
        {fieldError("metric", "Watch")}
      </label>
      {draft.metric === "rule_hits" && (
        <label>
          Rule
          <select
            name="alert_rule"
            value={draft.rule}
            onChange={(e) => set("rule", e.target.value as RuleKey)}
          >
            {RULE_CATALOG.map((rule) => (
              <option key={rule.key} value={rule.key}>
                {rule.label}
              </option>
            ))}
          </select>
          {fieldError("rule", "Rule")}
        </label>
      )}
      {draft.metric === "series_spike" && (
        <label>
          Series
          <select
            name="alert_series"
            value={draft.series}
            onChange={(e) => set("series", e.target.value as KeyedSeries)}
          >
            {KEYED_SERIES.map((series) => (
              <option key={series} value={series}>
                {seriesLabel(series)}
              </option>
            ))}
          </select>
          {fieldError("series", "Series")}
        </label>
      )}
      <label>
        Fires on
        <select
          name="alert_mode"
          value={draft.mode}
          disabled={modes.length < 2}
          onChange={(e) => set("mode", e.target.value as AlertMode)}
        >
          {modes.map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABELS[mode]}
            </option>
          ))}
        </select>
        {fieldError("mode", "Fires on")}
      </label>
      {draft.mode === "threshold" && (
        <label>
          Threshold ({unit})
          <input
            name="alert_threshold"
            type="number"
            inputMode="decimal"
            min={0}
            value={draft.threshold}
            aria-describedby={described("threshold")}
            onChange={(e) => set("threshold", e.target.value)}
          />
          {fieldError("threshold", "Threshold")}
        </label>
      )}
      {hasWindow(draft.metric) && (
        <label>
          Window (minutes)
          <input
            name="alert_window"
            type="number"
            inputMode="numeric"
            min={5}
            max={1440}
            step={5}
            value={draft.window_minutes}
            aria-describedby={described("window_minutes")}
            onChange={(e) => set("window_minutes", e.target.value)}
          />
          {fieldError("window_minutes", "Window")}
        </label>
      )}
      <label>
        Cool-down (minutes)
        <input
          name="alert_cooldown"
          type="number"
          inputMode="numeric"
          min={0}
          value={draft.cooldown_minutes}
          aria-describedby={described("cooldown_minutes", "alert-cooldown-hint")}
          onChange={(e) => set("cooldown_minutes", e.target.value)}
        />
        <small id="alert-cooldown-hint">Quiet this long after it fires.</small>
        {fieldError("cooldown_minutes", "Cool-down")}
      </label>
    </div>
  );
}

export function ChannelFields({
  draft,
  set,
  fieldError,
  described,
  slackHint,
}: FieldsProps & { slackHint: string | null }) {
  return (
    <>
      <fieldset className="al-channels-field">
        <legend>Send to</legend>
        <label className="check-row">
          <input
            type="checkbox"
            name="alert_email"
            checked={draft.email}
            onChange={(e) => set("email", e.target.checked)}
          />
          Email to the account's owners and admins
        </label>
        <label className="check-row">
          <input
            type="checkbox"
            name="alert_webhook"
            checked={draft.webhook}
            onChange={(e) => set("webhook", e.target.checked)}
          />
          <span>
            Webhook event (<code>alert.fired</code>, <code>alert.resolved</code>)
          </span>
        </label>
      </fieldset>
      <label>
        Slack URL
        <input
          name="alert_slack_url"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={slackHint ?? "https://hooks.slack.com/services/T000/B000/XXXX"}
          value={draft.slack_url}
          disabled={draft.remove_slack}
          aria-describedby={described("slack_url", "alert-slack-hint")}
          onChange={(e) => set("slack_url", e.target.value)}
        />
        <small id="alert-slack-hint">
          {slackHint
            ? `Saved: ${slackHint}. Leave blank to keep it.`
            : "A Slack (or compatible) incoming-webhook URL; blank for none."}
        </small>
        {fieldError("slack_url", "Slack URL")}
      </label>
      {slackHint && (
        <label className="check-row">
          <input
            type="checkbox"
            name="alert_remove_slack"
            checked={draft.remove_slack}
            onChange={(e) => set("remove_slack", e.target.checked)}
          />
          Remove the saved Slack URL
        </label>
      )}
    </>
  );
}
