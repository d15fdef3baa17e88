/**
 * rule_entropy (behavioral entropy score): review an event whose browser reports automation
 * (navigator.webdriver), whose form was submitted with no pointer or key event, typed faster
 * or more evenly than a person types, or filled and sent at once with nothing a person leaves
 * (the browser collector's signals), or whose email's local part looks randomly generated
 * when no browser behaviour was seen. The first of these that holds is the reason. A password
 * manager fills a form in a second too, so a quick submit without typing needs a sign of a
 * person (a paste, pointer moves) before it passes; a relay address (Hide My Email, Firefox
 * Relay) is random by design; and an odd handle (xxblazestorm427, k7q9z2x) typed by a person
 * the collector saw is theirs: one kind of evidence, the address alone, reviewed 4.6% of those
 * people's events on randomized worlds (issue 42, decision 030).
 */
import { RELAY_EMAIL_DOMAINS } from "../../../shared/catalog/email-providers.ts";
import { emailDomain } from "../email-domain.ts";
import type { BrowserSignals, EventSubject, Features, Finding, Rule } from "../types.ts";

/** Faster than this from the first touch of a form to its submit is not a person typing. */
export const MIN_TIME_TO_SUBMIT_MS = 1500;
/** This many key presses or more is typing (a password manager or a paste presses few). */
export const TYPED_KEYS = 10;
/** People's key intervals vary by tens of milliseconds; a script's by almost nothing. */
export const MIN_KEY_INTERVAL_SD_MS = 5;
/** The score from which an email counts as random (THRESHOLD in screening's features/entropy.ts). */
export const RANDOM_EMAIL_SCORE = 0.92;
/** A person reaching for the submit button moves the pointer more than this. */
export const PERSON_POINTER_EVENTS = 5;

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
  const typed = behavior.keyEvents >= TYPED_KEYS;
  const sd = behavior.keyIntervalSdMs;
  if (typed && sd !== null && sd < MIN_KEY_INTERVAL_SD_MS) {
    return {
      message: `${behavior.keyEvents} keys typed at an even pace: intervals vary by ${sd.toFixed(1)} ms (a person's by ${MIN_KEY_INTERVAL_SD_MS} ms or more)`,
      observed: Number(sd.toFixed(1)),
      limit: MIN_KEY_INTERVAL_SD_MS,
    };
  }
  const took = behavior.timeToSubmitMs;
  const looksFilledByHand =
    behavior.pasteCount > 0 || behavior.pointerEvents >= PERSON_POINTER_EVENTS;
  if (took !== null && took < MIN_TIME_TO_SUBMIT_MS && (typed || !looksFilledByHand)) {
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
  if (RELAY_EMAIL_DOMAINS.has(emailDomain(subject.email) ?? "")) return null;
  // Called only when the behaviour showed nothing automated: a person filled this form.
  if (subject.browser?.behavior) return null;
  const local = subject.email.slice(0, subject.email.lastIndexOf("@"));
  return {
    message: `email ${local}@… looks randomly generated (score ${randomness.score.toFixed(2)} against a model of names; limit ${RANDOM_EMAIL_SCORE})`,
    observed: Number(randomness.score.toFixed(2)),
    limit: RANDOM_EMAIL_SCORE,
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
