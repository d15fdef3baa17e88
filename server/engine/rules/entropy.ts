/**
 * rule_entropy (behavioral entropy score): review an event whose browser reports automation
 * (navigator.webdriver), whose form was submitted with no pointer or key event or faster than
 * a person fills one (the browser collector's signals), or whose email's local part looks
 * randomly generated. The first of these that holds is the reason.
 */
import type { BrowserSignals, EventSubject, Features, Finding, Rule } from "../types.ts";

/** Faster than this from the first touch of a form to its submit is not a person typing. */
export const MIN_TIME_TO_SUBMIT_MS = 1500;

function behaviorFinding(browser: BrowserSignals): Finding | null {
  if (browser.webdriver) {
    return {
      message: "the browser reports it is automated (navigator.webdriver)",
      observed: "webdriver",
      limit: null,
    };
  }
  const behavior = browser.behavior;
  if (!behavior) return null;
  if (behavior.pointerEvents + behavior.keyEvents === 0) {
    return {
      message: "the form was submitted without a single pointer or key event",
      observed: 0,
      limit: 1,
    };
  }
  const took = behavior.timeToSubmitMs;
  if (took !== null && took < MIN_TIME_TO_SUBMIT_MS) {
    return {
      message: `the form was submitted ${Math.round(took)} ms after it was first touched (limit ${MIN_TIME_TO_SUBMIT_MS} ms)`,
      observed: Math.round(took),
      limit: MIN_TIME_TO_SUBMIT_MS,
    };
  }
  return null;
}

function emailFinding(subject: EventSubject, features: Features): Finding | null {
  const randomness = features.emailRandomness;
  if (!subject.email || !randomness?.random) return null;
  const local = subject.email.slice(0, subject.email.lastIndexOf("@"));
  return {
    message: `email ${local}@… looks randomly generated (score ${randomness.score.toFixed(2)})`,
    observed: Number(randomness.score.toFixed(2)),
    limit: null,
  };
}

export const entropy: Rule = {
  key: "rule_entropy",
  appliesTo: ["event"],
  check(subject, _policy, features) {
    if (subject.kind !== "event") return null;
    return (
      (subject.browser ? behaviorFinding(subject.browser) : null) ?? emailFinding(subject, features)
    );
  },
};
