/**
 * What a rule counts, declared beside its check: which identities, over which window, of
 * which events, measured how. Everything else is derived from the rule list (rule-counts.ts):
 * the probes a screening asks (modules/screening/probes.ts), the counting rows worth storing
 * (countable), how far back a backtest remembers each identity (lookback) and the empty
 * counts. A new counting signal is then its rule file and its table test. Pure data.
 */
import { RULE_RECORDS } from "../../shared/catalog/rule-records.ts";
import type { RuleSettings } from "../../shared/schemas/rule-settings.ts";
import type { RuleKey } from "../../shared/schemas/rules.ts";
import type { ScreenType } from "../../shared/schemas/screening.ts";

/** The identities a screened event is counted by (each stored hashed: identities.ts). */
export const IDENTITY_KINDS = [
  "ip",
  "subnet",
  "device",
  "email",
  "card",
  "user",
  "promo",
  "disposable",
  "referrer",
  "network",
  "domain",
  "domainNet",
  "domainMadeUp",
  "domainMadeUpNet",
] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * How rows are counted: every row; distinct other end users (user id, else normalized email);
 * distinct other cards; or each end user with when it was first seen on the identity and
 * whether any of its events was blocked, denied or labelled fraud (linked accounts).
 */
export type Measure = "count" | "distinctSubject" | "distinctCard" | "subjects";

export type CountDecl<K extends IdentityKind = IdentityKind> = {
  /** Where the answers go: counts[group][kind]. */
  group: string;
  kinds: readonly K[];
  /** The events that ask; absent: every type. */
  asks?: readonly ScreenType[];
  /** The rows counted are of these types; absent: every type. */
  types?: readonly ScreenType[];
  /** How far back, in milliseconds, under the merchant's settings. */
  window: (s: RuleSettings) => number;
  measure: Measure;
  /** Only rows of events Warden did not block (a blocked trial did not start). */
  notBlocked?: boolean;
  /** Only rows of this event's promo code (asked only when the event has one). */
  samePromo?: boolean;
  /** Only rows of the referrer's own events (asked only by a referral naming one). */
  ofReferrer?: boolean;
  /** The probe reads the referrer's user rows (kind user), not this event's own identity. */
  atReferrer?: boolean;
  /** Kinds not asked where the address is a consumer network's (shared by its NAT). */
  offConsumerOnly?: readonly K[];
  /** Left out: this event's own end user, its user id, or its card (asked only with a card). */
  except?: "subject" | "user" | "card";
  /** Asked only when the settings turn this part of the rule on. */
  enabled?: (s: RuleSettings) => boolean;
};

/**
 * How often each identity was seen before this event: counts[group][kind], one group per
 * declaration (0 where not asked).
 */
export type Counts = Record<string, Record<string, number>>;

/** A declaration with typed readers of its answers: what rules and signals read, never a group's name. */
export type Declared<K extends IdentityKind> = CountDecl<K> & {
  /** This declaration's answers, one per kind (0 where not asked); null without counts. */
  read(features: { counts?: Counts }): Record<K, number> | null;
  /** The same, all 0 without counts (what the score reads). */
  of(features: { counts?: Counts }): Record<K, number>;
  /** Whether this event's counts include this declaration's answers. */
  asked(features: { counts?: Counts }): boolean;
};

export function declare<K extends IdentityKind>(decl: CountDecl<K>): Declared<K> {
  const of = (features: { counts?: Counts }) => {
    const group = features.counts?.[decl.group];
    const out = {} as Record<K, number>;
    for (const kind of decl.kinds) out[kind] = group?.[kind] ?? 0;
    return out;
  };
  return {
    ...decl,
    read: (features) => (features.counts ? of(features) : null),
    of,
    asked: (features) => features.counts?.[decl.group] !== undefined,
  };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A fixed window, whatever the settings. */
export const fixed = (ms: number) => () => ms;

/**
 * One of a rule's windows of stored data, as its record declares it (rule-records.ts), so the
 * engine counts over exactly what retention warns about (shared/privacy/retention.ts).
 */
export function recordWindow<K extends RuleKey>(
  rule: K,
  name: keyof (typeof RULE_RECORDS)[K]["windows"] & string,
): (s: RuleSettings) => number {
  const w = (RULE_RECORDS[rule].windows as Record<string, { days: number | string }>)[name];
  if (!w) throw new Error(`${rule} has no window ${name}`);
  const days = w.days;
  if (typeof days === "number") return fixed(days * DAY);
  return (s) => ((s[rule] as Record<string, unknown>)[days] as number) * DAY;
}
