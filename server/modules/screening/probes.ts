/**
 * What to count before judging a screened event: one probe per number the rules need, derived
 * from the declarations of the rules that are on (engine/counting.ts, rule-counts.ts). The
 * repository answers every probe in one query; countsOf reads the answers back into the
 * engine's Counts, and linksOf the "subjects" answers into the event's linked accounts.
 */
import type { CountDecl, IdentityKind, Measure } from "../../engine/counting.ts";
import { linksOf, parseEntry, type SubjectAnswers, type SubjectEntry } from "../../engine/links.ts";
import { allCounts, countsAsked, emptyCounts } from "../../engine/rule-counts.ts";
import type { Counts, EventSubject, Features, Links, Policy } from "../../engine/types.ts";
import { digest, type Identities, legacyDigest } from "./features/identities.ts";

export type Probe = {
  /** Where the answer goes in Counts, e.g. "signupsLastHour.ip". */
  name: string;
  kind: IdentityKind;
  value: string;
  /** The same identity's unkeyed digest: rows stored before keyed digests count too. */
  legacy?: string;
  since: Date;
  types?: readonly string[];
  measure: Measure;
  /** Only events Warden did not block (a blocked trial did not start). */
  notBlocked?: boolean;
  /** Only rows with this hashed promo code / of this hashed user (keyed, and unkeyed). */
  promo?: string;
  legacyPromo?: string;
  user?: string;
  legacyUser?: string;
  /** Left out of distinct counts: this event's own subject or card. */
  except?: string | null;
};

/** An address the offline data places at an internet provider that is not a host: NAT-shared. */
export function consumerNetwork(features: Pick<Features, "geo">): boolean {
  const geo = features.geo;
  return !!geo && geo.country !== null && !geo.hosting;
}

export function probesFor(
  subject: EventSubject,
  ids: Identities,
  policy: Policy,
  now: Date,
  /** The account's digest key (identities.ts), for identities hashed here. */
  key: string,
  features: Pick<Features, "geo"> = {},
): Probe[] {
  const probes: Probe[] = [];
  const type = subject.type;
  const shared = consumerNetwork(features);
  const referrer = subject.referrerUserId
    ? {
        keyed: digest(key, "user", subject.referrerUserId),
        legacy: legacyDigest("user", subject.referrerUserId),
      }
    : null;
  for (const decl of countsAsked(policy)) {
    if (decl.asks && !decl.asks.includes(type)) continue;
    if (decl.samePromo && !ids.values.promo) continue;
    if ((decl.ofReferrer || decl.atReferrer) && !referrer) continue;
    if (decl.except === "card" && !ids.values.card) continue;
    const since = new Date(now.getTime() - decl.window(policy.settings));
    const except =
      decl.except === "subject"
        ? ids.subject
        : decl.except === "user"
          ? (ids.values.user ?? null)
          : decl.except === "card"
            ? (ids.values.card ?? null)
            : undefined;
    for (const kind of decl.kinds) {
      if (shared && decl.offConsumerOnly?.includes(kind)) continue;
      const value = decl.atReferrer ? referrer?.keyed : ids.values[kind];
      if (!value) continue;
      probes.push({
        name: `${decl.group}.${kind}`,
        kind,
        value,
        legacy: decl.atReferrer ? referrer?.legacy : ids.legacy[kind],
        since,
        ...(decl.types ? { types: decl.types } : {}),
        measure: decl.measure,
        ...(decl.notBlocked ? { notBlocked: true } : {}),
        ...(decl.samePromo ? { promo: ids.values.promo, legacyPromo: ids.legacy.promo } : {}),
        ...(decl.ofReferrer ? { user: referrer?.keyed, legacyUser: referrer?.legacy } : {}),
        ...(except !== undefined ? { except } : {}),
      });
    }
  }
  return probes;
}

/**
 * Whether any probe, under any policy, can count a counting row of this kind stored for an
 * event of this type: a row nothing can count is not stored (decision 018). Derived from the
 * declarations: a kind some declaration counts over rows of this type (a distinct count of
 * cards only over rows that have one). Not the policy's: rows outlive a policy (up to 400
 * days), so this is what any policy could ask. probes.test.ts checks it against probesFor.
 */
export function countable(kind: IdentityKind, type: string, card: boolean): boolean {
  return countableKinds(type, card).has(kind);
}

const countableCache = new Map<string, ReadonlySet<IdentityKind>>();
function countableKinds(type: string, card: boolean): ReadonlySet<IdentityKind> {
  const cacheKey = `${type}:${card}`;
  let kinds = countableCache.get(cacheKey);
  if (!kinds) {
    const set = new Set<IdentityKind>();
    for (const decl of allCounts()) {
      if (decl.types && !decl.types.includes(type as never)) continue;
      if (decl.measure === "distinctCard" && !card) continue;
      // A probe at the referrer reads the referrer's user rows.
      for (const kind of decl.atReferrer ? (["user"] as const) : decl.kinds) set.add(kind);
    }
    kinds = set;
    countableCache.set(cacheKey, kinds);
  }
  return kinds;
}

/** Every declaration's identity kinds, for the tests' "every kind is asked" check. */
export function declaredKinds(): ReadonlySet<IdentityKind> {
  return new Set(allCounts().flatMap((decl: CountDecl) => decl.kinds));
}

/** The engine's Counts from the answers to `probes` (a probe not asked counts 0). */
export function countsOf(probes: readonly Probe[], answers: readonly number[]): Counts {
  const counts = emptyCounts();
  for (let i = 0; i < probes.length; i++) {
    const [group, field] = pathOf((probes[i] as Probe).name);
    const answer = answers[i] ?? 0;
    const target = counts[group];
    if (target && field !== undefined) target[field] = answer;
  }
  return counts;
}

/**
 * The event's linked accounts from the "subjects" probes' values (`subject|firstMs|bad`
 * each); null when none was asked.
 */
export function linksFrom(
  probes: readonly Probe[],
  values: readonly (readonly string[] | null)[],
  self: string | null,
  now: Date,
): Links | null {
  let answers: SubjectAnswers | null = null;
  for (let i = 0; i < probes.length; i++) {
    const probe = probes[i] as Probe;
    if (probe.measure !== "subjects") continue;
    const [group] = pathOf(probe.name);
    answers ??= new Map();
    let byKind = answers.get(group);
    if (!byKind) {
      byKind = new Map();
      answers.set(group, byKind);
    }
    const entries: SubjectEntry[] = [];
    for (const text of values[i] ?? []) {
      const entry = parseEntry(text);
      if (entry) entries.push(entry);
    }
    byKind.set(probe.kind, entries);
  }
  return answers ? linksOf(answers, self, now.getTime()) : null;
}

// Probe names are a few constants: split each once (a backtest asks for millions).
const paths = new Map<string, [string, string | undefined]>();
function pathOf(name: string): [string, string | undefined] {
  let path = paths.get(name);
  if (!path) {
    path = name.split(".") as [string, string | undefined];
    paths.set(name, path);
  }
  return path;
}
