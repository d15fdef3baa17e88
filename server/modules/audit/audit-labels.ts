/**
 * What a person reads for an audit event's target, decided when the event is written (the
 * AuditEvent.targetLabel column), so a removed member still reads as their email and a revoked
 * key as its name. Which kind of thing an action's target is comes from this one table; the
 * repository reads the facts (audit.repository.ts `facts`) and these functions word them.
 * A label never holds an end user's value (an email, a user id): a screening reads as its kind,
 * decision and score, so the log keeps nothing an erasure would have to find. No time either:
 * the page shows times in the reader's zone, a stored label could not. Pure.
 */

/** The kinds of thing an event names by id. */
export type TargetKind =
  | "member"
  | "invite"
  | "apiKey"
  | "webhookEndpoint"
  | "webhookDelivery"
  | "screening"
  | "charge"
  | "allowEntry"
  | "scoreModel"
  | "labelBatch"
  | "account";

type Input = Record<string, unknown> | null | undefined;

const subjectKind = (input: Input): TargetKind =>
  input?.subject_kind === "charge" ? "charge" : "screening";
const reviewKind = (input: Input): TargetKind =>
  input?.kind === "charge" ? "charge" : "screening";

/** What each action's target is; a function where the input says (a label on a charge). */
const TARGET_KINDS: Record<string, TargetKind | ((input: Input) => TargetKind)> = {
  "team.changeRole": "member",
  "team.remove": "member",
  "team.transferOwnership": "member",
  "team.revokeInvite": "invite",
  "team.acceptInvite": "invite",
  "apiKeys.revoke": "apiKey",
  "webhooks.enableEndpoint": "webhookEndpoint",
  "webhooks.removeEndpoint": "webhookEndpoint",
  "webhooks.resend": "webhookDelivery",
  "review.settle": reviewKind,
  "labels.add": subjectKind,
  "labelsApi.create": subjectKind,
  "screeningsApi.decide": "screening",
  "chargesApi.decide": "charge",
  "allowList.remove": "allowEntry",
  "scoreModels.adopt": "scoreModel",
  "labels.undo": "labelBatch",
  "labelsApi.undo": "labelBatch",
  "auth.switchAccount": "account",
  "auth.createAccount": "account",
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** "bulk label of 12 screenings as fraud", from what a bulk label was asked to do. */
function bulkOf(input: Input): string | undefined {
  const ids = input?.subject_ids;
  const { subject_kind: kind, label } = input ?? {};
  if (!Array.isArray(ids) || typeof kind !== "string" || typeof label !== "string") return;
  return labelOf({ kind: "labelBatch", count: ids.length, subjectKind: kind, label });
}

/** Labels of what a call makes, read from its input: it has no id before the call. */
const FROM_INPUT: Record<string, (input: Input) => string | undefined> = {
  "labels.bulk": bulkOf,
  "labelsApi.bulk": bulkOf,
  "team.invite": (input) => text(input?.email),
  "apiKeys.create": (input) => (text(input?.name) ? `API key ${input?.name}` : undefined),
  "webhooks.createEndpoint": (input) => text(input?.url),
};

/** What kind of thing the action's target is, or null when no lookup names it. */
export function targetKindOf(action: string, input?: unknown): TargetKind | null {
  const kind = TARGET_KINDS[action];
  if (kind === undefined) return null;
  return typeof kind === "function" ? kind(input as Input) : kind;
}

/** The label the input alone gives (an invitation's email, a new key's name), if any. */
export function labelFromInput(action: string, input: unknown): string | null {
  const label = FROM_INPUT[action]?.(input as Input);
  return label ?? null;
}

/** What the repository reads about a target, by kind. */
export type TargetFacts =
  | { kind: "member"; email: string }
  | { kind: "invite"; email: string }
  | { kind: "apiKey"; name: string }
  | { kind: "webhookEndpoint"; url: string }
  | { kind: "webhookDelivery"; eventType: string; url: string }
  | { kind: "screening"; type: string; decision: string; score: number }
  | { kind: "charge"; amount: number; currency: string }
  | { kind: "allowEntry"; allowKind: string }
  | { kind: "scoreModel"; version: number }
  | { kind: "labelBatch"; count: number; subjectKind: string; label: string }
  /** Named as everywhere (db/account-name.ts). */
  | { kind: "account"; name: string };

/** A screening's decision as a sentence reads it. */
const DECISION_WORDS: Record<string, string> = {
  allow: "allowed",
  review: "sent to review",
  block: "blocked",
};

const ALLOW_KINDS: Record<string, string> = {
  email: "an email",
  email_domain: "an email domain",
  user_id: "a user id",
  ip_cidr: "an IP range",
  device: "a device",
  card_fingerprint: "a card",
};

/** The label a person reads for the facts. */
export function labelOf(facts: TargetFacts): string {
  switch (facts.kind) {
    case "member":
      return facts.email;
    case "invite":
      return `invitation to ${facts.email}`;
    case "apiKey":
      return `API key ${facts.name}`;
    case "webhookEndpoint":
      return facts.url;
    case "webhookDelivery":
      return `${facts.eventType} to ${facts.url}`;
    case "screening":
      return `${facts.type} screening (${DECISION_WORDS[facts.decision] ?? facts.decision}, score ${facts.score})`;
    case "charge":
      return `charge of ${(facts.amount / 100).toFixed(2)} ${facts.currency.toUpperCase()}`.trim();
    case "allowEntry":
      return `allow-list entry for ${ALLOW_KINDS[facts.allowKind] ?? facts.allowKind}`;
    case "scoreModel":
      return `score model v${facts.version}`;
    case "labelBatch": {
      const things = `${facts.subjectKind}${facts.count === 1 ? "" : "s"}`;
      return `bulk label of ${facts.count} ${things} as ${facts.label}`;
    }
    case "account":
      return facts.name;
  }
}
