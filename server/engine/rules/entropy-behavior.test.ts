/** rule_entropy on the browser collector's signals: automation, no events, too fast; then email. */
import { describe, expect, it } from "vitest";
import { event, features, policy } from "../../../test/fixtures/engine.ts";
import type { BrowserSignals } from "../types.ts";
import { entropy, MIN_TIME_TO_SUBMIT_MS } from "./entropy.ts";

const person = {
  timeToSubmitMs: 8000,
  pointerEvents: 40,
  keyEvents: 25,
  keyIntervalSdMs: 55,
  pasteCount: 0,
};
const on = policy({ rule_entropy: true });
const randomEmail = { ...features(), emailRandomness: { score: 1.2, random: true } };

describe("rule_entropy with browser signals", () => {
  it.each<{
    name: string;
    browser: BrowserSignals | null;
    random?: boolean;
    observed: string | number | null;
    limit?: number | null;
  }>([
    { name: "no signals, a plain email", browser: null, observed: null },
    { name: "a person", browser: { webdriver: false, behavior: person }, observed: null },
    { name: "no form watched", browser: { webdriver: false, behavior: null }, observed: null },
    {
      name: "webdriver, even with a person's behaviour",
      browser: { webdriver: true, behavior: person },
      observed: "webdriver",
      limit: null,
    },
    {
      name: "no pointer or key event",
      browser: { webdriver: false, behavior: { ...person, pointerEvents: 0, keyEvents: 0 } },
      observed: 0,
      limit: 1,
    },
    {
      name: "keys only is a person (keyboard user)",
      browser: { webdriver: false, behavior: { ...person, pointerEvents: 0 } },
      observed: null,
    },
    {
      name: "just under the limit",
      browser: {
        webdriver: false,
        behavior: { ...person, timeToSubmitMs: MIN_TIME_TO_SUBMIT_MS - 1 },
      },
      observed: MIN_TIME_TO_SUBMIT_MS - 1,
      limit: MIN_TIME_TO_SUBMIT_MS,
    },
    {
      name: "at the limit",
      browser: { webdriver: false, behavior: { ...person, timeToSubmitMs: MIN_TIME_TO_SUBMIT_MS } },
      observed: null,
    },
    {
      name: "never touched, but events on the page",
      browser: { webdriver: false, behavior: { ...person, timeToSubmitMs: null } },
      observed: null,
    },
    {
      name: "a person with a random email: the email reason",
      browser: { webdriver: false, behavior: person },
      random: true,
      observed: 1.2,
      limit: null,
    },
    {
      name: "a bot with a random email: the behaviour reason first",
      browser: { webdriver: true, behavior: person },
      random: true,
      observed: "webdriver",
      limit: null,
    },
  ])("$name", ({ browser, random, observed, limit }) => {
    const finding = entropy.check(
      event({ email: "xq7zk2v9@example.com", browser }),
      on,
      random ? randomEmail : features(),
    );
    if (observed === null) expect(finding).toBeNull();
    else expect(finding).toMatchObject({ observed, limit });
  });

  it("says how fast, with the limit, in words", () => {
    const finding = entropy.check(
      event({ browser: { webdriver: false, behavior: { ...person, timeToSubmitMs: 240.6 } } }),
      on,
      features(),
    );
    expect(finding?.message).toBe(
      "the form was submitted 241 ms after it was first touched (limit 1500 ms)",
    );
  });
});
