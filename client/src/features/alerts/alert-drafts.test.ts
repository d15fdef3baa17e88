/** What the alert form sends, and how a metric moves its mode, as tables. */
import { describe, expect, it } from "vitest";
import type { AlertMetric, AlertMode, AlertView } from "../../../../shared/schemas/alerts.ts";
import { ZAlertInput } from "../../../../shared/schemas/alerts.ts";
import {
  type AlertDraft,
  draftOf,
  formErrors,
  inputOf,
  modesOf,
  NEW_DRAFT,
  switched,
  withMetric,
} from "./alert-drafts.ts";

const STORED: AlertView = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Scraping hits",
  metric: "rule_hits",
  mode: "threshold",
  rule: "rule_scraping",
  series: null,
  threshold: 10,
  window_minutes: 15,
  cooldown_minutes: 60,
  email: true,
  webhook: false,
  slack_url_hint: "hooks.slack.com/…XXXX",
  enabled: true,
  firing: false,
  last_fired_at: null,
  created_at: "2026-01-01T00:00:00.000Z",
};

describe("modesOf and withMetric", () => {
  it.each<[AlertMetric, AlertMode, AlertMode[], AlertMode]>([
    ["block_rate", "spike", ["threshold", "spike"], "spike"],
    ["rule_hits", "threshold", ["threshold", "spike"], "threshold"],
    ["series_spike", "threshold", ["spike"], "spike"],
    ["review_oldest", "spike", ["threshold"], "threshold"],
    ["webhook_failing", "spike", ["threshold"], "threshold"],
    ["score_shift", "threshold", ["threshold"], "threshold"],
  ])("%s from a %s draft: modes %j, mode %s", (metric, from, modes, mode) => {
    expect(modesOf(metric)).toEqual(modes);
    expect(withMetric({ ...NEW_DRAFT, mode: from }, metric).mode).toBe(mode);
  });
});

describe("inputOf", () => {
  const draft = (fields: Partial<AlertDraft>): AlertDraft => ({
    ...NEW_DRAFT,
    name: "A",
    ...fields,
  });

  it.each<[string, AlertDraft, boolean, Record<string, unknown>]>([
    [
      "a spike sends no threshold, rule or series",
      draft({ metric: "block_rate", mode: "spike", threshold: "7" }),
      false,
      {
        metric: "block_rate",
        mode: "spike",
        threshold: null,
        rule: null,
        series: null,
        slack_url: null,
      },
    ],
    [
      "rule hits send the rule and the threshold as a number",
      draft({ metric: "rule_hits", mode: "threshold", rule: "rule_scraping", threshold: "3" }),
      false,
      { rule: "rule_scraping", series: null, threshold: 3, window_minutes: 15 },
    ],
    [
      "a series spike sends the series",
      draft({ metric: "series_spike", mode: "spike", series: "promo" }),
      false,
      { rule: null, series: "promo", threshold: null },
    ],
    [
      "a blank threshold is null (the schema says it must be set)",
      draft({ metric: "review_oldest", mode: "threshold", threshold: " " }),
      false,
      { threshold: null },
    ],
    [
      "a new Slack URL is sent trimmed",
      draft({ slack_url: " https://hooks.slack.com/services/T/B/X " }),
      false,
      { slack_url: "https://hooks.slack.com/services/T/B/X" },
    ],
    [
      "an edit sends a new Slack URL",
      draft({ slack_url: "https://hooks.slack.com/services/T/B/Y" }),
      true,
      { slack_url: "https://hooks.slack.com/services/T/B/Y" },
    ],
    [
      "an edit asked to remove the Slack URL sends null",
      draft({ remove_slack: true, slack_url: "https://ignored.example/" }),
      true,
      { slack_url: null },
    ],
  ])("%s", (_, form, editing, expected) => {
    expect(inputOf(form, editing)).toMatchObject(expected);
  });

  it("leaves a blank Slack URL out of an edit, so the stored one is kept", () => {
    expect(inputOf(draft({ slack_url: "" }), true)).not.toHaveProperty("slack_url");
  });

  it.each<[string, Partial<AlertDraft>, string]>([
    ["a blank window", { window_minutes: "" }, "window_minutes"],
    ["a window of 7 minutes", { window_minutes: "7" }, "window_minutes"],
    ["a cool-down that is not a number", { cooldown_minutes: "soon" }, "cooldown_minutes"],
    [
      "a rate over 100%",
      { metric: "block_rate", mode: "threshold", threshold: "150" },
      "threshold",
    ],
  ])("%s is refused by the shared schema at %s", (_, fields, path) => {
    const parsed = ZAlertInput.safeParse(inputOf(draft(fields), false));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toContain(path);
  });
});

describe("draftOf and switched", () => {
  it("fills the form from a stored alert, the Slack URL blank", () => {
    expect(draftOf(STORED)).toMatchObject({
      name: "Scraping hits",
      rule: "rule_scraping",
      threshold: "10",
      window_minutes: "15",
      slack_url: "",
      remove_slack: false,
    });
  });

  it("switches an alert off with everything else as stored, its Slack URL kept", () => {
    const input = switched(STORED, false);
    expect(input).toEqual({
      name: "Scraping hits",
      metric: "rule_hits",
      mode: "threshold",
      rule: "rule_scraping",
      series: null,
      threshold: 10,
      window_minutes: 15,
      cooldown_minutes: 60,
      email: true,
      webhook: false,
      enabled: false,
    });
    expect(ZAlertInput.safeParse(input).success).toBe(true);
  });
});

describe("formErrors", () => {
  it.each([
    [{ threshold: "must be at least 0" }, { threshold: "must be at least 0" }],
    [
      { "alert.slack_url": "must be an http or https URL" },
      { slack_url: "must be an http or https URL" },
    ],
  ])("%j → %j", (issues, errors) => {
    expect(formErrors(issues)).toEqual(errors);
  });
});
