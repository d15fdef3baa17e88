/** How the Screenings page shows a screening's fields; pure, so tested as a table. */
import { ALLOW_KIND_NAMES } from "../../../../shared/schemas/allow-list.ts";
import type {
  AllowedView,
  ScreenReason,
  ScreenType,
  ScreenVerdict,
} from "../../../../shared/schemas/screening.ts";
import type { Tone } from "../../lib/tone.ts";

export const DECISION_NAMES: Record<ScreenVerdict, string> = {
  allow: "Allowed",
  review: "Review",
  block: "Blocked",
};

export function decisionTone(decision: ScreenVerdict): Tone {
  return decision === "block" ? "red" : decision === "review" ? "yellow" : "green";
}

/** "trial_start" reads "trial start". */
export function formatType(type: ScreenType): string {
  return type.replaceAll("_", " ");
}

/** The user id and the email together when both are known. */
export function formatWho(userId: string | null, email: string | null): string {
  if (userId && email) return `${email} (${userId})`;
  return email ?? userId ?? "-";
}

/** "would have blocked" / "would have reviewed" for a rule in monitor mode. */
export function wouldHave(action: ScreenReason["action"]): string {
  return action === "block" ? "would have blocked" : "would have reviewed";
}

/** "user id u1, added by jane@shop.example on 2026-11-20": the entry that allowed an event. */
export function formatAllowed(allowed: AllowedView): string {
  return `${ALLOW_KIND_NAMES[allowed.kind]} ${allowed.value}, added by ${allowed.added_by} on ${allowed.added_at.slice(0, 10)}`;
}

/**
 * What a would-have reason says: a live rule an allow-list entry overrode names the entry
 * ("would have blocked — allowed by user id u1"), a rule in monitor mode says only that.
 */
export function monitoredVerb(reason: ScreenReason, allowed: AllowedView | null): string {
  if (allowed?.rules.includes(reason.rule)) {
    return `${wouldHave(reason.action)} — allowed by ${ALLOW_KIND_NAMES[allowed.kind]} ${allowed.value}`;
  }
  return wouldHave(reason.action);
}

export function formatObserved(value: string | number | null): string {
  return value === null ? "-" : String(value);
}

/**
 * Each rule once, in order: the ones that fired, then the monitored ones; `allowed` marks a
 * live rule an allow-list entry overrode (`allowedRules`), which is not a monitor-mode rule.
 */
export function firedRules(
  reasons: ScreenReason[],
  monitored: ScreenReason[],
  allowedRules: readonly string[] = [],
) {
  const seen = new Set<string>();
  const out: { rule: ScreenReason["rule"]; monitored: boolean; allowed: boolean }[] = [];
  for (const [list, isMonitored] of [
    [reasons, false],
    [monitored, true],
  ] as const) {
    for (const reason of list) {
      if (seen.has(reason.rule)) continue;
      seen.add(reason.rule);
      const allowed = isMonitored && allowedRules.includes(reason.rule);
      out.push({ rule: reason.rule, monitored: isMonitored && !allowed, allowed });
    }
  }
  return out;
}
