/** How the Screenings page shows a screening's fields; pure, so tested as a table. */
import type {
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

export function formatObserved(value: string | number | null): string {
  return value === null ? "-" : String(value);
}

/** Each rule once, in order: the ones that fired, then the monitored ones. */
export function firedRules(reasons: ScreenReason[], monitored: ScreenReason[]) {
  const seen = new Set<string>();
  const out: { rule: ScreenReason["rule"]; monitored: boolean }[] = [];
  for (const [list, isMonitored] of [
    [reasons, false],
    [monitored, true],
  ] as const) {
    for (const reason of list) {
      if (seen.has(reason.rule)) continue;
      seen.add(reason.rule);
      out.push({ rule: reason.rule, monitored: isMonitored });
    }
  }
  return out;
}
