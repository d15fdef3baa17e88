/**
 * The risk score's inputs: every signal Warden reads about an event, measured whether or not a
 * rule's limit is passed (a rule decides on one signal past its limit; the score adds them all
 * up, score.ts). Each is a number, 0 when the signal says nothing, with a sentence for the
 * merchant. Counts are taken as log2(1 + n), capped, so the tenth account on a device does not
 * outweigh everything else. Pure: reads the same subject and features the rules read. Each
 * signal's family, fit constraint and counts are declared once (signals/declarations.ts); the
 * groups of signals are measured in signals/.
 */
import { ageSignals, linkSignals } from "./signals/account.ts";
import { browserSignals, networkSignals, placeSignals } from "./signals/browser.ts";
import type { Signal } from "./signals/declarations.ts";
import { emailSignals } from "./signals/email.ts";
import { type Measuring, round } from "./signals/measure.ts";
import {
  accountSignals,
  paceSignals,
  promoSignals,
  referralSignals,
  signupSignals,
} from "./signals/reuse.ts";
import type { EventSubject, Features, Policy } from "./types.ts";

export {
  FAMILIES,
  type Family,
  NEVER_NEGATIVE,
  SIGNAL_FAMILY,
  SIGNAL_KEYS,
  SIGNALS,
  type Signal,
  type SignalKey,
} from "./signals/declarations.ts";
export { logCount } from "./signals/measure.ts";
export { PERSON_REQUESTS_PER_MINUTE } from "./signals/reuse.ts";

/** The groups of signals, in the order their signals are listed (ties in points keep it). */
const GROUPS: readonly ((m: Measuring) => void)[] = [
  ageSignals,
  linkSignals,
  networkSignals,
  browserSignals,
  placeSignals,
  emailSignals,
  signupSignals,
  accountSignals,
  promoSignals,
  referralSignals,
  paceSignals,
];

/**
 * Every signal with something to say about this event (value ≠ 0). `counts` are those of
 * every rule (rule-counts.ts: the score asks them all).
 */
export function signalsOf(subject: EventSubject, policy: Policy, features: Features): Signal[] {
  const out: Signal[] = [];
  const add: Measuring["add"] = (signal, value, detail) => {
    if (value !== 0 && Number.isFinite(value)) out.push({ signal, value: round(value), detail });
  };
  for (const group of GROUPS) group({ subject, policy, features, add });
  return out;
}
