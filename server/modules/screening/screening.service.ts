/**
 * Screening: a merchant's backend asks before a signup, trial, promo, referral, checkout or
 * request. The policy comes from the cache; the features come from screening-inputs.ts
 * (normalized email, IP country and network, timezone fit, bot, email randomness; never a
 * throw) and are counted by one query; the pure engine decides; the screening is stored (it feeds the next one's counts)
 * before the answer goes back.
 */
import type { ScreenEvent, ScreenResult } from "../../../shared/schemas/screening.ts";
import { evaluate } from "../../engine/evaluate.ts";
import type { Consumed } from "../collector/collector.service.ts";
import type { PolicyService } from "../policy/policy.service.ts";
import { countsOf } from "./probes.ts";
import type { ScreeningRepository } from "./screening.repository.ts";
import { screeningInputs } from "./screening-inputs.ts";

const SERIALIZED = new Set(["signup", "trial_start", "promo_redemption", "referral", "checkout"]);

type Deps = {
  repo: ScreeningRepository;
  policy: PolicyService;
  now: () => Date;
  /** Takes a browser collector token's signals, once (collector.service.ts). */
  signals: { consume(accountId: string, token: string): Promise<Consumed> };
  /** The account's key for identity digests (identities.ts createDigestKeys). */
  digestKeyOf: (accountId: string) => string;
  /** Told each decision and how long it took (the metrics). */
  observe?: (decision: string, seconds: number) => void;
};

export function createScreeningService({ repo, policy, now, signals, digestKeyOf, observe }: Deps) {
  return {
    async screen(accountId: string, event: ScreenEvent): Promise<ScreenResult> {
      const started = performance.now();
      const at = now();
      const loaded = await policy.load(accountId);
      // Fail-open: a bad token leaves the event as the backend sent it (the answer says why).
      const collected = event.signals ? await signals.consume(accountId, event.signals) : null;
      const key = digestKeyOf(accountId);
      const { subject, features, ids, probes, history, unavailable } = screeningInputs(
        event,
        loaded,
        policy.features(),
        at,
        key,
        collected?.signals ?? null,
      );
      const judgeAndStore = async (db?: Parameters<typeof repo.store>[1]) => {
        const counted = await repo.countIdentities(accountId, probes, history, key, db);
        const evaluation = evaluate(subject, loaded, {
          ...features,
          counts: countsOf(probes, counted.answers),
          stripeHistory: counted.history,
        });
        const score = evaluation.score ?? 0;
        const { signals: _signals, ...input } = event;
        const id = await repo.store(
          {
            accountId,
            createdAt: at,
            type: subject.type,
            userId: subject.userId,
            email: subject.email,
            ip: subject.ip,
            country: features.geo?.country ?? null,
            decision: evaluation.decision,
            score,
            rules: [...evaluation.reasons, ...evaluation.monitored].map((reason) => reason.rule),
            reasons: evaluation.reasons,
            monitored: evaluation.monitored,
            input,
            collectIp: collected?.signals?.collect_ip ?? null,
            signals: collected?.signals ?? null,
            unavailable,
            blocked: evaluation.decision === "block",
            identities: ids,
          },
          db,
        );
        return { id, evaluation, score };
      };
      // Events that claim something once (a trial, a promo, an account) are judged one at a
      // time per identity; high-volume requests and logins are not worth the lock.
      const { id, evaluation, score } = SERIALIZED.has(subject.type)
        ? await repo.withLocks(
            Object.entries(ids.values).map(([kind, value]) => `${accountId}:${kind}:${value}`),
            judgeAndStore,
          )
        : await judgeAndStore();
      const tookMs = performance.now() - started;
      observe?.(evaluation.decision, tookMs / 1000);
      return {
        id,
        decision: evaluation.decision,
        score,
        reasons: evaluation.reasons,
        monitored: evaluation.monitored,
        took_ms: Math.round(tookMs * 100) / 100,
        ...(collected ? { signals: collected.status } : {}),
        ...(unavailable.length > 0 ? { unavailable } : {}),
        ...(evaluation.allowed ? { allowed: evaluation.allowed } : {}),
      };
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
