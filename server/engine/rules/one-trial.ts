/**
 * rule_ip (One trial per device/IP/email): at trial_start, block when another account already
 * started a trial (not blocked) with the same normalized email (gmail dots and +tags folded)
 * or the same card in the window. On a device the second account's trial is reviewed and the
 * third's blocked: a family shares its laptop (npm run simulate: blocking the second blocked
 * 4-7% of households' events), a farm that keeps its device goes on to a third. A merchant who
 * would rather lose a family's second trial than let a farm's through sets
 * second_trial_on_device to "block": one trial per device, like email and card. The same user
 * id starting again is a retry (a double click, a reload), not a second trial. An IP address
 * alone never counts: a mobile carrier's CGNAT, an office or a campus puts hundreds of people
 * behind one address (per-IP counting blocked a third of a university's trials).
 */
import { declare, recordWindow } from "../counting.ts";
import { linkCounts } from "../links.ts";
import type { Finding, Rule } from "../types.ts";
import { ordinal } from "../words.ts";

export const priorTrials = declare({
  group: "priorTrials",
  kinds: ["email", "card", "device"],
  asks: ["trial_start"],
  types: ["trial_start"],
  window: recordWindow("rule_ip", "trials"),
  measure: "distinctSubject",
  notBlocked: true,
  except: "user",
});

export const oneTrial: Rule = {
  key: "rule_ip",
  appliesTo: ["event"],
  counts: [priorTrials, linkCounts],
  check(subject, policy, features): Finding | null {
    if (subject.kind !== "event" || subject.type !== "trial_start") return null;
    const prior = priorTrials.read(features);
    if (!prior) return null;
    const { window_days: days, second_trial_on_device: second } = policy.settings.rule_ip;
    const matches = [
      ["email", features.normalizedEmail, 1],
      ["card", subject.cardFingerprint, 1],
      ["device", subject.deviceId, second === "block" ? 1 : 2],
    ] as const;
    for (const [identity, value, blockAt] of matches) {
      const others = prior[identity];
      if (!value || others === 0) continue;
      const accounts = `${others} other account${others === 1 ? "" : "s"}`;
      if (identity === "device" && second === "block") {
        return {
          message: `a ${others === 1 ? "second" : ordinal(others + 1)} account's trial on this device (${value}) in ${days} days: ${accounts} before it (limit: one trial per device; you chose to block a second account's trial on a device)`,
          observed: others + 1,
          limit: blockAt,
        };
      }
      if (others >= blockAt) {
        return {
          message: `a trial was already started with this ${identity} (${value}) in ${days} days: ${accounts} (limit: ${identity === "device" ? "two trials" : "one trial"} per ${identity})`,
          observed: others + 1,
          limit: blockAt,
        };
      }
      return {
        message: `a second account's trial on this device (${value}) in ${days} days: ${accounts} before it (reviewed: a family may share a device; the third is blocked)`,
        observed: others + 1,
        limit: blockAt,
        review: true,
      };
    }
    return null;
  },
};
