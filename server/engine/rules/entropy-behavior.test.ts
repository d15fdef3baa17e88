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
      name: "odd_handle: a person the collector saw, with a random-looking address: theirs, no reason",
      browser: { webdriver: false, behavior: person },
      random: true,
      observed: null,
    },
    {
      name: "a random email with no behaviour seen (a backend call, no collector): the email reason",
      browser: null,
      random: true,
      observed: 1.2,
      limit: 0.92,
    },
    {
      name: "a random email from a browser that sent no behaviour: the email reason",
      browser: { webdriver: false, behavior: null },
      random: true,
      observed: 1.2,
      limit: 0.92,
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

/** The populations of `npm run simulate` these checks must let through, and what they must not. */
describe("rule_entropy and the people it must not hurt", () => {
  const fast = (behavior: Partial<NonNullable<BrowserSignals["behavior"]>>) => ({
    webdriver: false,
    behavior: { ...person, timeToSubmitMs: 900, ...behavior },
  });
  it.each<{ population: string; browser: BrowserSignals; email?: string; flagged: boolean }>([
    {
      population: "password_manager: filled by the manager, pointer moved to the button",
      browser: fast({ keyEvents: 1, keyIntervalSdMs: null, pointerEvents: 9, pasteCount: 0 }),
      flagged: false,
    },
    {
      population: "password_manager: pasted from the vault, one tap on a phone",
      browser: fast({ keyEvents: 0, keyIntervalSdMs: null, pointerEvents: 2, pasteCount: 2 }),
      flagged: false,
    },
    {
      population: "keyboard_only: no pointer at all, typed slowly",
      browser: fast({
        timeToSubmitMs: 40_000,
        pointerEvents: 0,
        keyEvents: 60,
        keyIntervalSdMs: 180,
      }),
      flagged: false,
    },
    {
      population: "headless_stealth: a script typing at a fixed rate",
      browser: fast({
        timeToSubmitMs: 4_000,
        pointerEvents: 0,
        keyEvents: 30,
        keyIntervalSdMs: 1.5,
      }),
      flagged: true,
    },
    {
      population: "automation: values set and clicked (fill then click), nothing else",
      browser: fast({ keyEvents: 0, keyIntervalSdMs: null, pointerEvents: 3, pasteCount: 0 }),
      flagged: true,
    },
    {
      population: "automation: 30 keys typed in 900 ms",
      browser: fast({ keyEvents: 30, keyIntervalSdMs: 12 }),
      flagged: true,
    },
  ])("$population → flagged: $flagged", ({ browser, flagged }) => {
    const finding = entropy.check(event({ browser }), on, features());
    expect(finding !== null).toBe(flagged);
  });

  it.each([
    ["privacy_relay_email: Hide My Email", "q7kx2mvprw@privaterelay.appleid.com", false],
    ["privacy_relay_email: Firefox Relay", "3f9a8c1d@mozmail.com", false],
    ["privacy_relay_email: SimpleLogin", "a81bc7e2@simplelogin.com", false],
    ["a generated address at an ordinary provider", "xq7zk2v9w3@gmail.com", true],
  ])("%s (%s) → flagged: %s", (_population, email, flagged) => {
    const finding = entropy.check(event({ email, browser: null }), on, randomEmail);
    expect(finding !== null).toBe(flagged);
  });

  it("says how uneven the typing was, against a person's", () => {
    const finding = entropy.check(
      event({ browser: fast({ timeToSubmitMs: 4_000, keyEvents: 30, keyIntervalSdMs: 1.54 }) }),
      on,
      features(),
    );
    expect(finding).toMatchObject({
      message:
        "30 keys typed at an even pace: intervals vary by 1.5 ms (a person's by 5 ms or more)",
      observed: 1.5,
      limit: 5,
    });
  });
});
