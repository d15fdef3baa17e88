/**
 * What a merchant labels after an hour, as the two-hour run has it (two-hours.ts), from the
 * simulator's truth, and the labels posted as its backend would: the secret key's
 * POST /api/v1/screenings/{id}/decision for a reviewed event, then POST /api/v1/labels.
 */
import type { Outcome } from "./driver.ts";
import type { Rng } from "./rng.ts";
import type { Merchant, Warden } from "./warden.ts";

/** Share of allowed events the merchant comes to know the truth of (disputes, support). */
export const ALLOWED_SAMPLE = 0.05;
/**
 * Share of blocked attack events the merchant confirms as fraud: it looks into blocks when the
 * same people's chargebacks and disputes arrive for what got through, not into every one.
 */
export const CONFIRMED_BLOCKS = 0.25;

export type LabelWhy = "reviewed" | "contested" | "confirmed" | "sampled" | "found";

/** What share of events the merchant labels, by how it comes to know them. */
export type LabelShares = {
  /** Allowed events it learns the truth of (ALLOWED_SAMPLE). */
  allowed: number;
  /** Blocked attack events it confirms (CONFIRMED_BLOCKS). */
  confirmedBlocks: number;
  /**
   * Allowed events of these populations it finds out besides the sample (--found-out: e.g. a
   * promo's cost report naming the farm's redemptions); none by default.
   */
  foundOut?: Readonly<Record<string, number>>;
};
export type LabelPlan = {
  id: string;
  label: "fraud" | "legitimate";
  /** For a reviewed event: the merchant's decision in the review queue. */
  decision?: "approve" | "deny";
  why: LabelWhy;
  population: string;
  attack: boolean;
};

/**
 * What the merchant labels after hour 1, from the simulator's truth (attack: fraud; ordinary:
 * legitimate): every reviewed event (denied or approved in the queue, and labelled); every
 * blocked ordinary event (the person complains: legitimate); CONFIRMED_BLOCKS of blocked attack
 * events (fraud); ALLOWED_SAMPLE of allowed events (and `foundOut`'s shares of its populations'
 * allowed events). One draw per outcome, whatever its decision, so the samples do not shift
 * when another event's decision changes.
 */
export function labelsOf(
  outcomes: readonly Outcome[],
  r: Rng,
  shares: LabelShares = { allowed: ALLOWED_SAMPLE, confirmedBlocks: CONFIRMED_BLOCKS },
): LabelPlan[] {
  const plans: LabelPlan[] = [];
  for (const o of outcomes) {
    const draw = r.next();
    const label = o.attack ? "fraud" : "legitimate";
    const base = { id: o.id, label, population: o.population, attack: o.attack } as const;
    if (o.decision === "review")
      plans.push({ ...base, decision: o.attack ? "deny" : "approve", why: "reviewed" });
    else if (o.decision === "block" && !o.attack) plans.push({ ...base, why: "contested" });
    else if (o.decision === "block" && draw < shares.confirmedBlocks)
      plans.push({ ...base, why: "confirmed" });
    else if (o.decision === "allow" && draw < shares.allowed)
      plans.push({ ...base, why: "sampled" });
    else if (o.decision === "allow" && draw < (shares.foundOut?.[o.population] ?? 0))
      plans.push({ ...base, why: "found" });
  }
  return plans;
}

/** The labels posted with the secret key: the review decision first, then the label. */
export async function postLabels(
  warden: Warden,
  merchant: Merchant,
  plans: readonly LabelPlan[],
  progress: (done: number) => void,
) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${warden.base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${merchant.secretKey}`,
      },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`POST ${path}: HTTP ${response.status} ${await response.text()}`);
  };
  for (const [i, plan] of plans.entries()) {
    if (plan.decision)
      await post(`/api/v1/screenings/${plan.id}/decision`, {
        decision: plan.decision,
        note: "simulated merchant review",
      });
    await post("/api/v1/labels", {
      subject_kind: "screening",
      subject_id: plan.id,
      label: plan.label,
      note: `simulated: ${plan.why}`,
    });
    if (i % 25 === 0) progress(i + 1);
  }
  progress(plans.length);
}
