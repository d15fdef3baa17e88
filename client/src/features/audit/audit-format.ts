/**
 * How the Audit log page reads an event: the action as a sentence ("changed the rules"), the
 * filter groups of its select, what changed between before and after, and the query its list
 * and its "Export CSV" link send. Pure.
 */
import type { AuditListInput } from "../../../../shared/schemas/audit.ts";

/** The action select's groups: each sends its actions and prefixes as one `action` filter. */
export const ACTION_GROUPS = [
  { key: "sign-in", label: "Sign-in", actions: "auth.,twoFactor.,two_factor." },
  { key: "rules", label: "Rules", actions: "rules.,ruleSettings." },
  { key: "templates", label: "Templates", actions: "templates." },
  { key: "lists", label: "Lists", actions: "blocklist.,allowList." },
  { key: "settings", label: "Settings", actions: "settings.,allowedOrigins.,stripe." },
  { key: "keys", label: "Keys", actions: "apiKeys." },
  { key: "webhooks", label: "Webhooks", actions: "webhooks." },
  { key: "alerts", label: "Alerts", actions: "alerts." },
  { key: "scoring", label: "Scoring", actions: "scoreThresholds.,scoreModels." },
  { key: "team", label: "Team", actions: "team.,security." },
  {
    key: "privacy",
    label: "Data and privacy",
    actions: "endUsers.,endUsersApi.,retention.,account.",
  },
  {
    key: "reviews",
    label: "Reviews",
    actions: "review.,labels.,labelsApi.,screeningsApi.,chargesApi.",
  },
] as const;
export type ActionGroup = (typeof ACTION_GROUPS)[number]["key"];

/** What each action did, as the end of a sentence whose subject is who did it. */
const SENTENCES: Record<string, string> = {
  "auth.sign_in": "signed in",
  "auth.sign_in_failed": "failed to sign in",
  "auth.password_accepted": "gave the right password; the second factor was still to come",
  "auth.verifyTwoFactor": "signed in with a second factor",
  "auth.changePassword": "changed their password",
  "auth.switchAccount": "switched to this account",
  "auth.createAccount": "created this account",
  "auth.two_factor_failed": "gave a wrong second-factor code",
  "auth.password_reset": "reset their password through the emailed link",
  "two_factor.enabled": "turned on two-factor sign-in",
  "two_factor.disabled": "turned off two-factor sign-in",
  "two_factor.recovery_codes_regenerated": "made new recovery codes",
  "twoFactor.confirm": "turned on two-factor sign-in",
  "twoFactor.disable": "turned off two-factor sign-in",
  "twoFactor.regenerateCodes": "made new recovery codes",
  "rules.put": "changed the rules",
  "ruleSettings.put": "changed the rule settings",
  "templates.put": "changed the templates",
  "blocklist.put": "changed the block lists",
  "allowList.add": "added an entry to the allow list",
  "allowList.remove": "removed an entry from the allow list",
  "settings.put": "changed the settings",
  "allowedOrigins.set": "changed the allowed origins",
  "allowedOrigins.allow": "allowed an origin",
  "stripe.loadDemo": "loaded the demo data",
  "stripe.removeDemo": "removed the demo data",
  "stripe.startImport": "started importing charges from Stripe",
  "apiKeys.create": "created an API key",
  "apiKeys.revoke": "revoked an API key",
  "webhooks.createEndpoint": "added a webhook endpoint",
  "webhooks.enableEndpoint": "turned a webhook endpoint back on",
  "webhooks.removeEndpoint": "removed a webhook endpoint",
  "webhooks.resend": "sent a webhook delivery again",
  "alerts.create": "added an alert",
  "alerts.update": "changed an alert",
  "alerts.remove": "removed an alert",
  "alerts.test": "sent a test of an alert",
  "scoreThresholds.put": "changed the score thresholds",
  "scoreThresholds.reset": "reset a score threshold to its templates' default",
  "scoreModels.propose": "proposed a new score model",
  "scoreModels.adopt": "adopted a score model",
  "scoreModels.rollback": "rolled back to the previous score model",
  "team.invite": "invited a team member",
  "team.revokeInvite": "revoked an invitation",
  "team.changeRole": "changed a member's role",
  "team.remove": "removed a team member",
  "team.leave": "left the team",
  "team.acceptInvite": "joined the team",
  "team.transferOwnership": "handed over ownership of the account",
  "team.renameAccount": "renamed the account",
  "security.put": "changed the security settings",
  "endUsers.export": "exported the data held about an end user",
  "endUsers.erase": "erased an end user's data",
  "endUsersApi.export": "exported the data held about an end user",
  "endUsersApi.erase": "erased an end user's data",
  "retention.put": "changed how long data is kept",
  "account.exportConfig": "exported the account's configuration",
  "account.importConfig": "imported a configuration into the account",
  "review.settle": "settled a review",
  "review.bulk": "settled reviews in bulk",
  "labels.add": "labelled an event",
  "labelsApi.create": "labelled an event through the API",
  "labels.bulk": "labelled events in bulk",
  "labels.undo": "undid a bulk label",
  "labelsApi.bulk": "labelled events in bulk through the API",
  "labelsApi.undo": "undid a bulk label through the API",
  "screeningsApi.decide": "settled a review through the API",
  "chargesApi.decide": "settled a charge's review through the API",
};

/** "changed the rules"; an action this console does not know yet is named as it is stored. */
export function actionSentence(action: string): string {
  return SENTENCES[action] ?? `did ${action}`;
}

/** Whether any sentence is known for the action (the table above stays complete). */
export function knowsAction(action: string): boolean {
  return action in SENTENCES;
}

export type Change = { key: string; before: unknown; after: unknown };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Leaves of nested objects by dotted path; arrays and other values are leaves. */
function leaves(value: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(item) && Object.keys(item).length > 0) {
      for (const [inner, leaf] of leaves(item, path)) found.set(inner, leaf);
    } else found.set(path, item);
  }
  return found;
}

/**
 * What changed between two objects, key by key (nested keys dotted: "rule_email.action"), in
 * the order the keys come; null when either side is not an object (show it whole instead).
 */
export function changedKeys(before: unknown, after: unknown): Change[] | null {
  if (!isPlainObject(before) || !isPlainObject(after)) return null;
  const old = leaves(before);
  const now = leaves(after);
  const keys = [...new Set([...old.keys(), ...now.keys()])];
  return keys
    .filter((key) => JSON.stringify(old.get(key)) !== JSON.stringify(now.get(key)))
    .map((key) => ({ key, before: old.get(key), after: now.get(key) }));
}

/** A value on one line: text as it is, nothing as "(none)", anything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "(none)";
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value);
}

/** Pretty JSON for a value shown whole. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** What the page's filter controls hold: a group, part of the actor, and local dates. */
export type AuditFilterForm = {
  group?: ActionGroup;
  actor?: string;
  /** YYYY-MM-DD, the first day shown (local time). */
  from?: string;
  /** YYYY-MM-DD, the last day shown (local time), all of it. */
  to?: string;
};

/** Local midnight of a YYYY-MM-DD, `days` later, as an ISO time; undefined for none. */
function localMidnight(date: string | undefined, days = 0): string | undefined {
  const match = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const at = new Date(year, month - 1, day + days);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The filters as audit.list and GET /api/audit.csv take them (dates in the viewer's zone). */
export function filterQuery(form: AuditFilterForm): Omit<AuditListInput, "cursor" | "limit"> {
  const group = ACTION_GROUPS.find((g) => g.key === form.group);
  const actor = form.actor?.trim();
  const since = localMidnight(form.from);
  const until = localMidnight(form.to, 1);
  return {
    ...(group && { action: group.actions }),
    ...(actor && { actor }),
    ...(since && { since }),
    ...(until && { until }),
  };
}

/** The "Export CSV" link for what the list shows. */
export function exportHref(form: AuditFilterForm): string {
  const query = new URLSearchParams(
    Object.entries(filterQuery(form)).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    ),
  ).toString();
  return `/api/audit.csv${query ? `?${query}` : ""}`;
}

/** Whether the from date comes after the to date (nothing could match). */
export function datesReversed(form: AuditFilterForm): boolean {
  return Boolean(form.from && form.to && form.from > form.to);
}
