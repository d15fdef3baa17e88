/**
 * Screening: a merchant's backend asks before a signup, trial, promo, referral, checkout or
 * request. The policy comes from the cache; the features come from screening-inputs.ts
 * (normalized email, IP country and network, timezone fit, bot, email randomness; never a
 * throw); counting, judging by the pure engine and storing happen in batches with the
 * screenings that arrive meanwhile (screening-batches.ts), and the answer goes back once the
 * screening is committed (it feeds the next one's counts).
 */
import type {
  AllowedView,
  LinkedSummary,
  ScreenEvent,
  ScreenResult,
  ScreenType,
} from "../../../shared/schemas/screening.ts";
import { scoreNote } from "../../../shared/score/score-note.ts";
import { evaluate } from "../../engine/evaluate.ts";
import type { Allowed, Evaluation, Links, Policy } from "../../engine/types.ts";
import type { Consumed } from "../collector/collector.service.ts";
import type { PolicyService } from "../policy/policy.service.ts";
import { FEATURES, type FeatureFunctions } from "./features/event-features.ts";
import { countsOf, linksFrom } from "./probes.ts";
import type { StoredScreening } from "./screening.repository.ts";
import type { ScreeningBatches } from "./screening-batches.ts";
import { screeningInputs } from "./screening-inputs.ts";

type Deps = {
  /** Counts, judges and stores screenings in batches (screening-batches.ts). */
  batches: ScreeningBatches;
  policy: PolicyService;
  now: () => Date;
  /** Takes what a browser collector token holds, once (collector.service.ts). */
  collector: { consume(accountId: string, token: string): Promise<Consumed> };
  /** The account's key for identity digests (identities.ts createDigestKeys). */
  digestKeyOf: (accountId: string) => string;
  /** Told each decision and how long it took (the metrics). */
  observe?: (decision: string, seconds: number) => void;
  /** The feature computations (event-features.ts FEATURES unless a test needs one to fail). */
  features?: FeatureFunctions;
};

export function createScreeningService({
  batches,
  policy,
  now,
  collector,
  digestKeyOf,
  observe,
  features: compute = FEATURES,
}: Deps) {
  return {
    async screen(accountId: string, event: ScreenEvent): Promise<ScreenResult> {
      const started = performance.now();
      const at = now();
      const loaded = await policy.load(accountId);
      // Fail-open: a bad token leaves the event as the backend sent it (the answer says why).
      const consumed = event.signals ? await collector.consume(accountId, event.signals) : null;
      const key = digestKeyOf(accountId);
      const { subject, features, ids, probes, history, unavailable } = screeningInputs(
        event,
        loaded,
        policy.features(),
        at,
        key,
        consumed?.collected ?? null,
        compute,
      );
      const { signals: _token, ...input } = event;
      const { id, evaluation, score } = await batches({
        accountId,
        key,
        probes,
        history,
        judge(counted) {
          const links = linksFrom(probes, counted.values, ids.subject, at);
          const evaluation = evaluate(subject, loaded, {
            ...features,
            now: at.getTime(),
            counts: countsOf(probes, counted.answers),
            links,
            stripeHistory: counted.history,
          });
          const score = evaluation.score ?? 0;
          const row: StoredScreening = {
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
            collectIp: consumed?.collected?.collect_ip ?? null,
            collected: consumed?.collected ?? null,
            unavailable,
            allowed: evaluation.allowed ? allowedView(evaluation.allowed) : null,
            linked: links ? linkedView(links) : null,
            contributions: evaluation.contributions ?? null,
            blocked: evaluation.decision === "block",
            identities: ids,
          };
          return { row, result: (id: string) => ({ id, evaluation, score }) };
        },
      });
      const tookMs = performance.now() - started;
      observe?.(evaluation.decision, tookMs / 1000);
      return {
        id,
        decision: evaluation.decision,
        score,
        contributions: evaluation.contributions ?? [],
        reasons: evaluation.reasons,
        monitored: evaluation.monitored,
        took_ms: Math.round(tookMs * 100) / 100,
        ...(consumed ? { signals: consumed.status } : {}),
        ...(consumed?.reason ? { signals_reason: consumed.reason } : {}),
        ...(unavailable.length > 0 ? { unavailable } : {}),
        ...(evaluation.allowed ? { allowed: allowedView(evaluation.allowed) } : {}),
        ...noteOf(subject.type, score, evaluation, loaded),
      };
    },
  };
}

/**
 * The answer's `score_note` when the score reached the level Warden acts at but nothing was set
 * to act on it (score-note.ts), from the policy already loaded: no query of its own.
 */
function noteOf(
  type: ScreenType,
  score: number,
  evaluation: Pick<Evaluation, "reasons" | "monitored">,
  policy: Policy,
): { score_note?: string } {
  if (!policy.score) return {};
  const isScore = (reason: { rule: string }) => reason.rule === "risk_score";
  const acted = evaluation.reasons.some(isScore) || evaluation.monitored.some(isScore);
  const note = scoreNote({
    type,
    score,
    acted,
    inForce: policy.score.thresholds[type],
    shipped: policy.score.weights.thresholds[type],
  });
  return note ? { score_note: note } : {};
}

/** The linked accounts as the screening stores them (Screening.linked, decision 023). */
export function linkedView(links: Links): LinkedSummary {
  return {
    accounts: links.accounts,
    first_seen_last_hour: links.firstSeenLastHour,
    first_seen_last_day: links.firstSeenLastDay,
    bad: links.bad,
    through: links.through,
    hubs: links.hubs,
    account_first_seen: iso(links.accountFirstSeen),
    device_first_seen: iso(links.deviceFirstSeen),
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The deciding allow-list entry as the answer, the stored screening and the console show it. */
export function allowedView(allowed: Allowed): AllowedView {
  return {
    kind: allowed.kind,
    value: allowed.value,
    added_by: allowed.addedBy,
    added_at: allowed.addedAt,
    message: allowed.message,
    rules: allowed.rules,
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
