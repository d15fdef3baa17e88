/**
 * The backtest's judge: given the settings to try, it judges each stored screening (in time
 * order, counting from the replay's own counters, so velocity is as of the event's time and
 * follows the new decisions: a trial the new settings block did not start) and each stored
 * charge, with the same engine as the live paths, and the allow list as it stood at each
 * one's time. No I/O: the service feeds it rows.
 */

import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { ScreenEvent } from "../../../shared/schemas/screening.ts";
import { evaluate } from "../../engine/evaluate.ts";
import type { AllowListEntry, Decision, Features, Policy, Reason } from "../../engine/types.ts";
import type { IdentityKind } from "../screening/screening.entry.ts";
import { countsOf, linksFrom, screeningInputs } from "../screening/screening.entry.ts";
import type { AllowListTimeline } from "./allow-list-timeline.ts";
import type { CounterRow, ReplayCounters } from "./replay-counters.ts";
import type { StripeHistoryIndex } from "./stripe-history.ts";

export type StoredScreeningRow = {
  id: string;
  createdAt: Date;
  /** The event as sent (without its collector token, the `signals` field). */
  input: ScreenEvent;
  /** What warden.js collected for it (from the token the screening consumed), if anything. */
  collected: CollectedSignals | null;
  decision: string;
};

export type StoredChargeRow = {
  chargeId: string;
  created: number;
  email: string | null;
  amount: number;
  currency: string;
  riskScore: number | null;
  cardCountry: string | null;
  billingCountry: string | null;
  cardFingerprint: string | null;
  efwId: string | null;
  efwActionable: boolean | null;
  efwFraudType: string | null;
  blockedBy: string | null;
  refunded: boolean;
  amountRefunded: number;
  disputed: boolean;
};

export type Judged = { from: Decision; to: Decision; reasons: Reason[] };

export function createReplay(deps: {
  policy: Policy;
  features: Features;
  counters: ReplayCounters;
  history: StripeHistoryIndex;
  /** The account's digest key: identities are hashed as the live screening stored them. */
  digestKey: string;
  /** The allow list at each moment (none: no allow list). */
  allowList?: AllowListTimeline;
}) {
  const { policy: tried, features: base, counters, history, digestKey, allowList } = deps;
  let listed: readonly AllowListEntry[] = [];
  let policy: Policy = tried;
  /** The tried settings with the allow list in force at `ms`, rebuilt only when it changes. */
  function policyAt(ms: number): Policy {
    const now = allowList?.at(ms) ?? listed;
    if (now !== listed) {
      listed = now;
      policy = { ...tried, allowList: now };
    }
    return policy;
  }
  return {
    screening(row: StoredScreeningRow): Judged {
      const at = row.createdAt;
      const policy = policyAt(at.getTime());
      const {
        subject,
        features,
        ids,
        probes,
        history: query,
      } = screeningInputs(row.input, policy, base, at, digestKey, row.collected);
      const evaluation = evaluate(subject, policy, {
        ...features,
        now: at.getTime(),
        counts: countsOf(
          probes,
          probes.map((probe) => counters.answer(probe)),
        ),
        links: linksFrom(
          probes,
          probes.map((probe) => (probe.measure === "subjects" ? counters.subjects(probe) : null)),
          counters.subjectKey(ids.subject),
          at,
        ),
        stripeHistory: query ? history.lookup(query, Math.floor(at.getTime() / 1000)) : null,
      });
      const counted: CounterRow = {
        at: at.getTime(),
        type: subject.type,
        blocked: evaluation.decision === "block",
        subject: ids.subject,
        user: ids.values.user ?? null,
        card: ids.values.card ?? null,
        promo: ids.values.promo ?? null,
      };
      const values = ids.values;
      for (const kind in values) {
        counters.add(kind as IdentityKind, values[kind as IdentityKind] as string, counted);
      }
      return {
        from: row.decision as Decision,
        to: evaluation.decision,
        reasons: evaluation.reasons,
      };
    },

    /**
     * A charge as stored now (its early fraud warning included). Before, it was blocked when
     * Warden's rules acted on it; the charge rules only ever refund, so "review" is advisory.
     */
    charge(row: StoredChargeRow): Judged {
      const policy = policyAt(row.created * 1000);
      const evaluation = evaluate(
        {
          kind: "charge",
          email: row.email,
          riskScore: row.riskScore,
          cardCountry: row.cardCountry,
          billingCountry: row.billingCountry,
          cardFingerprint: row.cardFingerprint,
          earlyFraudWarning: row.efwId
            ? { actionable: Boolean(row.efwActionable), fraudType: row.efwFraudType }
            : null,
        },
        policy,
        base,
      );
      return {
        from: row.blockedBy === "custom_rule" ? "block" : "allow",
        to: evaluation.decision,
        reasons: evaluation.reasons,
      };
    },
  };
}
