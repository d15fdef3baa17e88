/**
 * The engine's vocabulary: what it judges (a subject), with what (a policy and features), and
 * what it answers (a decision with reasons). Plain data only, so every rule is a pure function.
 */
import type { Blocklist } from "../../shared/schemas/blocklist.ts";
import type { RuleKey, Rules } from "../../shared/schemas/rules.ts";
import type { Templates } from "../../shared/schemas/templates.ts";

/** A Stripe charge as the rules see it (the caller derives it from the stored charge). */
export type ChargeSubject = {
  kind: "charge";
  email: string | null;
  riskScore: number | null;
  cardCountry: string | null;
  billingCountry: string | null;
  earlyFraudWarning: { actionable: boolean; fraudType: string | null } | null;
};

/** Every kind of thing Warden judges; screened events join this union. */
export type Subject = ChargeSubject;
export type SubjectKind = Subject["kind"];

/** Everything the merchant set that the rules read. */
export type Policy = {
  rules: Rules;
  templates: Templates;
  blocklist: Blocklist;
};

/** Facts about the world the rules need, loaded by the caller (no I/O in the engine). */
export type Features = {
  /** Known disposable email domains, lowercase. */
  disposableDomains: ReadonlySet<string>;
};

export type RuleAction = "block" | "review";
export type Decision = "allow" | "review" | "block";

/** Why a rule fired: its action, a sentence for the merchant, and the value against the limit. */
export type Reason = {
  rule: RuleKey;
  action: RuleAction;
  message: string;
  observed: string | number | null;
  limit: string | number | null;
};

/** What one rule found: a reason without the rule key and action, which the engine adds. */
export type Finding = Omit<Reason, "rule" | "action">;

export type Evaluation = { decision: Decision; score: number | null; reasons: Reason[] };

/** One rule: which subjects it judges, its action, and a pure check. */
export type Rule<S extends Subject = Subject> = {
  key: RuleKey;
  action: RuleAction;
  appliesTo: readonly S["kind"][];
  check(subject: S, policy: Policy, features: Features): Finding | null;
};
