/**
 * The review queue's pages: open screenings and charges merged oldest first, each with the
 * identities it shares with earlier events and its latest label; and the open count.
 */
import { toMajorUnits } from "../../../shared/currency.ts";
import {
  REVIEW_COUNT_CAP,
  type ReviewFilters,
  type ReviewItem,
  type ReviewKind,
  type ReviewQueueInput,
  ZReviewFilters,
  ZReviewQueueInput,
} from "../../../shared/schemas/review.ts";
import { storedSummary } from "../links/links.service.ts";
import type { OpenCharge } from "./charge-review.repository.ts";
import {
  decodeCursor,
  encodeCursor,
  keysetsAfter,
  kindsOf,
  mergeOldestFirst,
} from "./queue-order.ts";
import type { OpenRow, QueueFilters } from "./review.repository.ts";
import type { ReviewDeps } from "./review.types.ts";
import { sharedIdentities } from "./shared-identities.ts";

const HOUR_MS = 3_600_000;

/** A page's item before its shared identities and label are added. */
type Entry = { kind: ReviewKind; at: number; id: string } & (
  | { screening: OpenRow }
  | { charge: OpenCharge }
);

const screeningEntry = (row: OpenRow): Entry => ({
  kind: "screening",
  at: row.createdAt.getTime(),
  id: row.id,
  screening: row,
});
const chargeEntry = (row: OpenCharge): Entry => ({
  kind: "charge",
  at: row.created * 1000,
  id: row.id,
  charge: row,
});

/** A charge's identities, shaped as a stored screening's for sharedIdentities(). */
const chargeIdentity = (row: OpenCharge) => ({
  email: row.email,
  ip: null,
  input: row.cardFingerprint ? { card_fingerprint: row.cardFingerprint } : {},
  signals: null,
});

/** The queue's filters as the repositories take them: an age becomes a time, as of `now`. */
export function queueFilters(f: ReviewFilters, now: Date): QueueFilters {
  return {
    rule: f.rule,
    type: f.type,
    before: f.older_than_hours ? new Date(now.getTime() - f.older_than_hours * HOUR_MS) : undefined,
  };
}

/** One item of the page, from its entry, what it shares and its latest label. */
function itemOf(
  entry: Entry,
  shared: ReviewItem["shared"],
  label: ReviewItem["label"] | undefined,
): ReviewItem {
  const common = {
    id: entry.id,
    kind: entry.kind,
    created_at: new Date(entry.at).toISOString(),
    shared,
  };
  if ("screening" in entry) {
    const row = entry.screening;
    return {
      ...common,
      type: row.type as ReviewItem["type"],
      user_id: row.userId,
      email: row.email,
      ip: row.ip,
      score: row.score,
      contributions: (row.contributions ?? []) as ReviewItem["contributions"],
      charge: null,
      reasons: row.reasons as ReviewItem["reasons"],
      label: label ?? null,
      linked: storedSummary(row.linked),
    };
  }
  const row = entry.charge;
  return {
    ...common,
    type: null,
    user_id: null,
    email: row.email,
    ip: null,
    score: row.riskScore,
    contributions: [],
    charge: { amount: toMajorUnits(row.amount, row.currency), currency: row.currency },
    reasons: (row.reasons ?? []) as ReviewItem["reasons"],
    label: label ?? null,
    linked: null,
  };
}

export function createReviewQueue({
  repo,
  charges,
  labels,
  now,
  digestKeyOf,
}: Pick<ReviewDeps, "repo" | "charges" | "labels" | "now" | "digestKeyOf">) {
  /** The page's items with what each shares with earlier events and its latest label. */
  async function itemsOf(accountId: string, page: Entry[]): Promise<ReviewItem[]> {
    const key = digestKeyOf(accountId);
    const probes = page.flatMap((entry) =>
      sharedIdentities(
        "screening" in entry ? entry.screening : chargeIdentity(entry.charge),
        key,
      ).map((id) => ({ ...id, screeningId: entry.id, at: new Date(entry.at) })),
    );
    const idsOf = (kind: ReviewKind) => page.filter((e) => e.kind === kind).map((e) => e.id);
    const [shared, screeningLabels, chargeLabels] = await Promise.all([
      repo.shared(accountId, probes),
      labels.latest(accountId, "screening", idsOf("screening")),
      labels.latest(accountId, "charge", idsOf("charge")),
    ]);
    const sharedOf = (id: string) =>
      shared
        .filter((s) => s.screeningId === id && s.events > 0)
        .map((s) => ({
          kind: s.kind as ReviewItem["shared"][number]["kind"],
          events: s.events,
          fraud: s.fraud,
        }));
    return page.map((entry) =>
      itemOf(
        entry,
        sharedOf(entry.id),
        (entry.kind === "screening" ? screeningLabels : chargeLabels).get(entry.id),
      ),
    );
  }

  return {
    async queue(accountId: string, raw: ReviewQueueInput) {
      const input = ZReviewQueueInput.parse(raw);
      const filters = queueFilters(input, now());
      const after = input.cursor ? keysetsAfter(decodeCursor(input.cursor)) : undefined;
      const kinds = kindsOf(input);
      const [screenings, chargeRows] = await Promise.all([
        kinds.screening ? repo.open(accountId, filters, input.limit + 1, after?.screenings) : [],
        kinds.charge ? charges.open(accountId, filters, input.limit + 1, after?.charges) : [],
      ]);
      const entries = mergeOldestFirst(
        screenings.map(screeningEntry),
        chargeRows.map(chargeEntry),
        input.limit + 1,
      );
      const page = entries.slice(0, input.limit);
      const last = page.at(-1);
      return {
        items: await itemsOf(accountId, page),
        nextCursor: entries.length > input.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Open items (matching the filters, when given), up to REVIEW_COUNT_CAP. */
    async count(accountId: string, raw: ReviewFilters = {}) {
      const parsed = ZReviewFilters.parse(raw);
      const filters = queueFilters(parsed, now());
      const kinds = kindsOf(parsed);
      const [screenings, chargesOpen] = await Promise.all([
        kinds.screening ? repo.countOpen(accountId, REVIEW_COUNT_CAP + 1, filters) : 0,
        kinds.charge ? charges.countOpen(accountId, REVIEW_COUNT_CAP + 1, filters) : 0,
      ]);
      const open = screenings + chargesOpen;
      return { open: Math.min(open, REVIEW_COUNT_CAP), capped: open > REVIEW_COUNT_CAP };
    },
  };
}
