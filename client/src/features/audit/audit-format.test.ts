import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../../../server/transport/access.ts";
import {
  ACTION_GROUPS,
  actionSentence,
  changedKeys,
  datesReversed,
  exportHref,
  filterQuery,
  formatValue,
  knowsAction,
} from "./audit-format.ts";

/** Every action the log can hold: the gate's audited operations, and the sign-in service's. */
const AUDITED = [
  ...Object.entries(OPERATIONS)
    .filter(([, operation]) => operation.audit)
    .map(([name]) => name),
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.password_accepted",
];

describe("actionSentence", () => {
  it.each([
    ["rules.put", "changed the rules"],
    ["review.settle", "settled a review"],
    ["auth.sign_in", "signed in"],
    ["auth.sign_in_failed", "failed to sign in"],
    ["apiKeys.create", "created an API key"],
    ["labelsApi.create", "labelled an event through the API"],
    ["allowList.remove", "removed an entry from the allow list"],
    ["team.transferOwnership", "handed over ownership of the account"],
    ["something.new", "did something.new"],
  ])("%s reads %j", (action, sentence) => {
    expect(actionSentence(action)).toBe(sentence);
  });

  it("has a sentence for every action the log can hold", () => {
    expect(AUDITED.length).toBeGreaterThan(30);
    expect(AUDITED.filter((action) => !knowsAction(action))).toEqual([]);
  });

  it("puts every action the log can hold in one filter group", () => {
    const groupsOf = (action: string) =>
      ACTION_GROUPS.filter((group) =>
        group.actions.split(",").some((part) => action.startsWith(part)),
      );
    expect(AUDITED.filter((action) => groupsOf(action).length !== 1)).toEqual([]);
  });
});

describe("changedKeys", () => {
  it.each([
    [
      "a changed value, old and new",
      { risk_level_threshold: 70, rule_email: true },
      { risk_level_threshold: 85, rule_email: true },
      [{ key: "risk_level_threshold", before: 70, after: 85 }],
    ],
    [
      "nested keys, dotted",
      { rule_signup_velocity: { per_ip_per_hour: 20, action: "block" } },
      { rule_signup_velocity: { per_ip_per_hour: 42, action: "block" } },
      [{ key: "rule_signup_velocity.per_ip_per_hour", before: 20, after: 42 }],
    ],
    [
      "lists compared whole",
      { countries: ["KP"] },
      { countries: ["KP", "IR"] },
      [{ key: "countries", before: ["KP"], after: ["KP", "IR"] }],
    ],
    [
      "a key added and one removed",
      { a: 1 },
      { b: 2 },
      [
        { key: "a", before: 1, after: undefined },
        { key: "b", before: undefined, after: 2 },
      ],
    ],
    ["nothing changed", { a: 1 }, { a: 1 }, []],
  ])("%s", (_name, before, after, changes) => {
    expect(changedKeys(before, after)).toEqual(changes);
  });

  it.each([
    ["no before (what was sent)", undefined, { name: "key" }],
    ["a list", [1], [2]],
    ["text", "a", "b"],
  ])("is null for %s: shown whole instead", (_name, before, after) => {
    expect(changedKeys(before, after)).toBeNull();
  });
});

describe("formatValue", () => {
  it.each([
    ["KP", "KP"],
    ["", '""'],
    [70, "70"],
    [true, "true"],
    [null, "(none)"],
    [undefined, "(none)"],
    [["KP", "IR"], '["KP","IR"]'],
    [{ review: 60 }, '{"review":60}'],
  ])("%j reads %s", (value, text) => {
    expect(formatValue(value)).toBe(text);
  });
});

describe("filterQuery and exportHref", () => {
  it("sends nothing for no filters", () => {
    expect(filterQuery({})).toEqual({});
    expect(exportHref({})).toBe("/api/audit.csv");
  });

  it("sends a group's actions, the actor trimmed, and local days as times", () => {
    const query = filterQuery({
      group: "lists",
      actor: "  ops@example.com ",
      from: "2026-11-20",
      to: "2026-11-21",
    });
    expect(query).toEqual({
      action: "blocklist.,allowList.",
      actor: "ops@example.com",
      since: new Date(2026, 10, 20).toISOString(),
      until: new Date(2026, 10, 22).toISOString(),
    });
    // The tests run in Asia/Tokyo: a local day starts at 15:00 UTC the day before.
    expect(query.since).toBe("2026-11-19T15:00:00.000Z");
    const href = new URL(
      exportHref({ group: "lists", actor: "ops@example.com", from: "2026-11-20" }),
      "http://x",
    );
    expect(href.pathname).toBe("/api/audit.csv");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      action: "blocklist.,allowList.",
      actor: "ops@example.com",
      since: "2026-11-19T15:00:00.000Z",
    });
  });

  it("ignores a blank actor and a date that is not one", () => {
    expect(filterQuery({ actor: "   ", from: "20/11/2026", to: "" })).toEqual({});
  });

  it("tells when the dates are the wrong way round", () => {
    expect(datesReversed({ from: "2026-11-21", to: "2026-11-20" })).toBe(true);
    expect(datesReversed({ from: "2026-11-20", to: "2026-11-20" })).toBe(false);
    expect(datesReversed({ from: "2026-11-20" })).toBe(false);
  });
});
