/**
 * The one count of labels: which of the account's screenings are labelled and how, as the risk
 * score's fit learns from them, Test on history scores rules against them, and both pages
 * count them (training-set.ts says what wins: a screening's newest word, a label or a review
 * decision, over what Stripe's charges say of a checkout). A labelled charge counts through
 * the checkout screenings it speaks for, never as a subject of its own, so no label counts
 * twice.
 */
import type { LabelCounts } from "../../../shared/schemas/bulk-labels.ts";
import type { ScreeningKeyset, TrainingRepository } from "./training.repository.ts";
import { type Labelled, labelledSet, STRIPE_WINDOW_DAYS, stripeVerdicts } from "./training-set.ts";

const PAGE = 5_000;
/** Checkout screenings read to match Stripe's charges with, newest first. */
const MAX_CHECKOUTS = 500_000;
const DAY_MS = 86_400_000;

export function createLabelVerdicts({
  training,
  now,
}: {
  training: TrainingRepository;
  now: () => Date;
}) {
  /** The checkout screenings Stripe's charges could speak for (none without such charges). */
  async function checkoutsFor(accountId: string, charges: readonly { created: number }[]) {
    if (charges.length === 0) return [];
    // A loop, not Math.min(...): up to 200,000 charges would overflow the call's arguments.
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    for (const { created } of charges) {
      first = Math.min(first, created);
      last = Math.max(last, created);
    }
    const from = new Date(first * 1000 - STRIPE_WINDOW_DAYS * DAY_MS);
    const to = new Date(last * 1000);
    const out: Awaited<ReturnType<TrainingRepository["checkouts"]>> = [];
    let keyset: ScreeningKeyset = null;
    while (out.length < MAX_CHECKOUTS) {
      const page = await training.checkouts(accountId, from, to, keyset, PAGE);
      out.push(...page);
      const end = page.at(-1);
      if (!end || page.length < PAGE) break;
      keyset = { createdAt: end.createdAt, id: end.id };
    }
    return out;
  }

  /** Every labelled screening once, newest first (at most MAX_TRAINING_ROWS). */
  async function all(accountId: string): Promise<{ rows: Labelled[]; capped: boolean }> {
    const at = now();
    const [labels, reviews, charges] = await Promise.all([
      training.labels(accountId),
      training.reviews(accountId),
      training.charges(accountId, Math.floor(at.getTime() / 1000) - STRIPE_WINDOW_DAYS * 86_400),
    ]);
    const stripe = stripeVerdicts(charges, await checkoutsFor(accountId, charges));
    return labelledSet([...labels, ...reviews], stripe);
  }

  return {
    all,

    /** How many screenings are labelled fraud and legitimate. */
    async counts(accountId: string): Promise<LabelCounts> {
      const { rows } = await all(accountId);
      let fraud = 0;
      for (const row of rows) fraud += row.y;
      return { fraud, legitimate: rows.length - fraud };
    },

    /** Each labelled screening's verdict, keyed "screening:<id>" (Test on history's truth). */
    async truths(accountId: string): Promise<Map<string, "fraud" | "legitimate">> {
      const { rows } = await all(accountId);
      return new Map(
        rows.map((row) => [`screening:${row.id}`, row.y === 1 ? "fraud" : "legitimate"]),
      );
    },
  };
}

export type LabelVerdicts = ReturnType<typeof createLabelVerdicts>;
