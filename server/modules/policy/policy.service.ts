/**
 * Everything the engine needs for an account, loaded in one place: the policy (rule flags,
 * templates, each rule's settings, block list, allow list and allowed origins, combined by
 * effectiveRules) and the features
 * that do not depend on the event (the disposable-domain set, built once).
 *
 * The policy is read on every Stripe event and every screening, so it is kept in memory per
 * account and dropped when the change feed says the account's settings changed (in this
 * process at once, in other instances through PostgreSQL's NOTIFY). A load that overlaps a
 * change is not kept, and a copy older than `maxAgeMs` is reloaded in case a change was lost
 * (or sooner, when an allow-list entry expires).
 */
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { RuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import type { Templates } from "../../../shared/schemas/templates.ts";
import { thresholdsInForce } from "../../../shared/score/thresholds.ts";
import type { Thresholds, Weights } from "../../../shared/score/weights.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import { DEFAULT_WEIGHTS } from "../../engine/default-weights.ts";
import type { AllowListEntry, Features, Policy } from "../../engine/types.ts";

type Source<T> = { get(accountId: string): Promise<T> };

type Deps = {
  rules: Source<Rules>;
  templates: Source<Templates>;
  blocklist: Source<Blocklist>;
  /** The merchant's own rule settings (only what they changed). */
  ruleSettings: { overrides(accountId: string): Promise<RuleSettingsUpdate> };
  /** Allow-list entries in force now (expired ones are not loaded). */
  allowList?: { active(accountId: string): Promise<AllowListEntry[]> };
  /** The merchant's allowed origins (Settings → API keys). */
  origins?: { allowed(accountId: string): Promise<string[]> };
  /**
   * The merchant's risk-score settings: its adopted weights (null: the shipped defaults) and
   * its own thresholds (modules/scoring). Absent: the defaults, thresholds from templates.
   */
  scoring?: {
    inForce(accountId: string): Promise<{ weights: Weights | null; thresholds: Thresholds }>;
  };
  changes: ChangeFeed;
  now: () => Date;
  maxAgeMs?: number;
};

// Built once per process: the package's own helper rebuilds this ~100k-entry set per call.
let disposableDomains: ReadonlySet<string> | undefined;

/** The features that do not depend on the event or the account. */
export function baseFeatures(): Features {
  disposableDomains ??= disposableEmailBlocklistSet();
  return { disposableDomains };
}

export function createPolicyService({
  rules,
  templates,
  blocklist,
  ruleSettings,
  allowList,
  origins,
  scoring,
  changes,
  now,
  maxAgeMs = 60_000,
}: Deps) {
  const cache = new Map<string, { policy: Policy; validUntil: number }>();
  /** Bumped on every change, so a load that started before it is not cached. */
  let generation = 0;

  changes.subscribe(({ topic, accountId }) => {
    if (topic !== TOPICS.policy && topic !== "*") return;
    generation += 1;
    if (accountId === "*") cache.clear();
    else cache.delete(accountId);
  });

  async function read(accountId: string): Promise<Policy> {
    const [r, t, b, own, allowed, allowedOrigins, scored] = await Promise.all([
      rules.get(accountId),
      templates.get(accountId),
      blocklist.get(accountId),
      ruleSettings.overrides(accountId),
      allowList?.active(accountId) ?? [],
      origins?.allowed(accountId) ?? [],
      scoring?.inForce(accountId) ?? { weights: null, thresholds: {} },
    ]);
    const { enabled, settings } = effectiveRules(r, t, own);
    const weights = scored.weights ?? DEFAULT_WEIGHTS;
    return {
      rules: r,
      templates: t,
      blocklist: b,
      enabled,
      settings,
      allowList: allowed,
      allowedOrigins,
      score: {
        weights,
        thresholds: thresholdsInForce(t, scored.thresholds, weights.thresholds),
      },
    };
  }

  /** Until when a policy loaded at `at` may be used: the age limit, or an entry's expiry. */
  function validUntil(policy: Policy, at: number): number {
    let until = at + maxAgeMs;
    for (const entry of policy.allowList ?? []) {
      if (entry.expiresAt) until = Math.min(until, Date.parse(entry.expiresAt));
    }
    return until;
  }

  return {
    async load(accountId: string): Promise<Policy> {
      const cached = cache.get(accountId);
      const at = now().getTime();
      if (cached && at < cached.validUntil) return cached.policy;
      const started = generation;
      const policy = await read(accountId);
      if (generation === started)
        cache.set(accountId, { policy, validUntil: validUntil(policy, at) });
      return policy;
    },

    features: baseFeatures,
  };
}

/** What the settings services call after a change, so every instance reloads the policy. */
export function policyChangeNotifier(changes: ChangeFeed): (accountId: string) => void {
  return (accountId) => changes.publish({ topic: TOPICS.policy, accountId });
}

export type PolicyService = ReturnType<typeof createPolicyService>;
