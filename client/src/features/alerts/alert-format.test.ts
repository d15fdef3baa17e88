/** How the Alerts page words an alert and its events, as tables. */
import { describe, expect, it } from "vitest";
import type { AlertView } from "../../../../shared/schemas/alerts.ts";
import {
  channelsText,
  cooldownText,
  deliveredRows,
  minutesText,
  triggerText,
  watchedText,
  windowText,
} from "./alert-format.ts";

type Watched = Pick<AlertView, "metric" | "mode" | "rule" | "series" | "threshold">;
const alert = (fields: Partial<Watched> & Pick<Watched, "metric">): Watched => ({
  mode: "threshold",
  rule: null,
  series: null,
  threshold: null,
  ...fields,
});

describe("watchedText and triggerText", () => {
  it.each<[Watched, string, string]>([
    [alert({ metric: "block_rate", mode: "spike" }), "blocks", "a spike against its baseline"],
    [
      alert({ metric: "block_rate", threshold: 5 }),
      "the share of screenings blocked",
      "at 5% or more",
    ],
    [
      alert({ metric: "review_rate", threshold: 12.5 }),
      "the share of screenings sent to review",
      "at 12.5% or more",
    ],
    [
      alert({ metric: "rule_hits", rule: "rule_scraping", threshold: 1 }),
      "hits of “Scraping and throttling”",
      "at 1 hit or more",
    ],
    [
      alert({ metric: "rule_hits", rule: "rule_gone", threshold: 3 }),
      "hits of “rule_gone”",
      "at 3 hits or more",
    ],
    [
      alert({ metric: "series_spike", mode: "spike", series: "signup_network" }),
      "signups from one network",
      "a spike against its baseline",
    ],
    [
      alert({ metric: "series_spike", mode: "spike", series: "promo" }),
      "redemptions from one promo code",
      "a spike against its baseline",
    ],
    [
      alert({ metric: "review_oldest", threshold: 24 }),
      "how long the oldest open review has waited",
      "at 24 hours or more",
    ],
    [
      alert({ metric: "webhook_failing", threshold: 60 }),
      "how long a webhook endpoint has failed every delivery",
      "at 60 minutes or more",
    ],
    [
      alert({ metric: "score_shift", threshold: 10 }),
      "how far the mean risk score moved from usual",
      "at ±10 points or more",
    ],
  ])("%j watches %s, fires %s", (watched, what, when) => {
    expect(watchedText(watched)).toBe(what);
    expect(triggerText(watched)).toBe(when);
  });
});

describe("minutesText, windowText and cooldownText", () => {
  it.each([
    [5, "5 min"],
    [60, "1 h"],
    [90, "1 h 30 min"],
    [1440, "24 h"],
  ])("%i minutes: %s", (minutes, text) => {
    expect(minutesText(minutes)).toBe(text);
  });

  it.each<[AlertView["metric"], number, string | null]>([
    ["block_rate", 15, "over 15 min"],
    ["rule_hits", 60, "over 1 h"],
    ["review_oldest", 15, null],
    ["webhook_failing", 15, null],
  ])("a %s alert with a %i-minute window: %s", (metric, window_minutes, text) => {
    expect(windowText({ metric, window_minutes })).toBe(text);
  });

  it.each([
    [0, "no cool-down"],
    [60, "quiet for 1 h after firing"],
  ])("cool-down %i: %s", (minutes, text) => {
    expect(cooldownText(minutes)).toBe(text);
  });
});

describe("channelsText", () => {
  it.each([
    [{ email: true, webhook: true, slack_url_hint: null }, "Email, webhook event"],
    [
      { email: false, webhook: false, slack_url_hint: "hooks.slack.com/…XXXX" },
      "Slack (hooks.slack.com/…XXXX)",
    ],
    [
      { email: true, webhook: false, slack_url_hint: "hooks.slack.com/…XXXX" },
      "Email, Slack (hooks.slack.com/…XXXX)",
    ],
    [{ email: false, webhook: false, slack_url_hint: null }, "No channel: shown here only"],
  ])("%j: %s", (channels, text) => {
    expect(channelsText(channels)).toBe(text);
  });
});

describe("deliveredRows", () => {
  it.each<[Record<string, string>, [string, string][]]>([
    [
      { slack: "sent (HTTP 200)", webhook: "queued", email: "queued to 2" },
      [
        ["Email", "queued to 2"],
        ["Webhook", "queued"],
        ["Slack", "sent (HTTP 200)"],
      ],
    ],
    [{ email: "off", webhook: "off", slack: "failed: HTTP 500" }, [["Slack", "failed: HTTP 500"]]],
    [{ email: "off", webhook: "off", slack: "off" }, []],
    [{}, []],
    [{ pager: "sent" }, [["pager", "sent"]]],
  ])("%j: %j", (delivered, rows) => {
    expect(deliveredRows(delivered)).toEqual(rows);
  });
});
