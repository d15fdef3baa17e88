/**
 * The review queue: every screening Warden answered `review`, and every charge the
 * merchant's rules answered `review`, stays open until a person (or the merchant's backend)
 * approves or denies it. Oldest first, keyset-paged.
 */
import { z } from "zod";
import { ZLabelView, ZNote } from "./labels.ts";
import { REASON_KEYS } from "./rules.ts";
import {
  LINK_KINDS,
  SCREEN_TYPES,
  ZContribution,
  ZLinkCount,
  ZLinkedSummary,
  ZReason,
  ZScreeningRow,
} from "./screening.ts";
import { storableString, uuidString } from "./storable.ts";

export const REVIEW_DECISIONS = ["approve", "deny"] as const;
export const REVIEW_STATUSES = ["open", "approved", "denied"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Identities an item shares with earlier events, as the queue explains them. */
export const SHARED_KINDS = ["device", "card", "email", "ip"] as const;
export type SharedKind = (typeof SHARED_KINDS)[number];

/** What a queued item is: a screened event, or a Stripe charge. */
export const REVIEW_KINDS = ["screening", "charge"] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const ZReviewFilters = z.strictObject({
  rule: z.enum(REASON_KEYS).optional(),
  /** Screenings only, or charges only. */
  kind: z.enum(REVIEW_KINDS, { message: "must be screening or charge" }).optional(),
  /** A screening's type (signup, login, …); charges have none, so it lists screenings only. */
  type: z.enum(SCREEN_TYPES).optional(),
  /** Only items at least this many hours old. */
  older_than_hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .optional(),
});
export type ReviewFilters = z.infer<typeof ZReviewFilters>;

/** Not strict: react-query's infinite queries add their own keys (direction). */
export const ZReviewQueueInput = z.object({
  ...ZReviewFilters.shape,
  limit: z.number().int().min(1).max(200).default(50),
  /** Opaque, from a previous page's nextCursor. */
  cursor: storableString().max(200, "must be at most 200 characters").nullish(),
});
export type ReviewQueueInput = z.input<typeof ZReviewQueueInput>;

export const ZShared = z.object({
  kind: z.enum(SHARED_KINDS),
  /** Earlier screenings that carried the same identity. */
  events: z.number().int(),
  /** Of those, how many are labelled fraud now. */
  fraud: z.number().int(),
});

/** A queued charge's amount, in major units, as the dashboard shows it. */
export const ZReviewCharge = z.object({ amount: z.number(), currency: z.string() });

export const ZReviewItem = z.object({
  /** The screening's id, or the Stripe charge id (ch_…). */
  id: z.string(),
  kind: z.enum(REVIEW_KINDS),
  created_at: z.string(),
  /** A screening's type; null for a charge. */
  type: z.enum(SCREEN_TYPES).nullable(),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  /** A screening's score, or the charge's Radar risk score (null when Stripe gave none). */
  score: z.number().nullable(),
  /** What makes up a screening's score (empty for a charge, or a screening stored before). */
  contributions: z.array(ZContribution),
  /** A charge's amount; null for a screening. */
  charge: ZReviewCharge.nullable(),
  reasons: z.array(ZReason),
  shared: z.array(ZShared),
  label: ZLabelView.nullable(),
  /** A screening's linked accounts as stored when it was screened; null for a charge or before. */
  linked: ZLinkedSummary.nullable(),
});
export type ReviewItem = z.infer<typeof ZReviewItem>;

export const ZReviewPage = z.object({
  items: z.array(ZReviewItem),
  nextCursor: z.string().nullable(),
});

/** Open items, counted up to a cap (the shell shows "Review 9999+" past it). */
export const ZReviewCount = z.object({ open: z.number().int(), capped: z.boolean() });
export const REVIEW_COUNT_CAP = 9999;

export const ZReviewDecisionInput = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS, { message: "must be approve or deny" }),
  note: ZNote.optional(),
  /** On approve: put the user (user id, else email) on the allow list too. */
  always_allow: z.boolean().optional(),
});
export type ReviewDecisionInput = z.input<typeof ZReviewDecisionInput>;

/** Which screening: GET /api/v1/screenings/{id}, and the console's detail. */
export const ZScreeningRef = z.strictObject({
  id: uuidString().describe("The screening's id (from POST /api/v1/screen)"),
});

/** A screening's id and the decision (the path's id and the body of POST .../decision). */
export const ZScreeningSettleInput = ZReviewDecisionInput.extend(ZScreeningRef.shape);

/** Which charge: GET /api/v1/charges/{id} and POST /api/v1/charges/{id}/decision. */
export const ZChargeRef = z.strictObject({
  id: storableString()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .describe("The Stripe charge's id (ch_…)"),
});

/** The console settles a screening or a charge. */
export const ZReviewSettleInput = ZScreeningSettleInput.extend({
  /** A screening's id (a UUID) or a Stripe charge's (ch_…); one of neither names nothing, a 404. */
  id: storableString().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  /** What `id` names: a screening (the default) or a Stripe charge. */
  kind: z.enum(REVIEW_KINDS).default("screening"),
});

export const ZReviewBulkInput = z.strictObject({
  filters: ZReviewFilters,
  decision: z.enum(REVIEW_DECISIONS),
  note: ZNote.optional(),
});

export const ZReviewState = z.object({
  status: z.enum(REVIEW_STATUSES),
  at: z.string().nullable(),
  by: z.string().nullable(),
  note: z.string().nullable(),
});

/**
 * Another account linked to a screening's (decision 023), read from the counting rows of the
 * identities they share, over the 30 days before the screening.
 */
export const ZLinkedAccount = z.object({
  user_id: z.string().nullable().describe("As the account's newest linked screening sent it"),
  email: z.string().nullable().describe("As the account's newest linked screening sent it"),
  first_seen: z.string().describe("ISO 8601: its first screening on a shared identity"),
  last_seen: z.string().describe("ISO 8601: its newest screening on a shared identity"),
  screenings: z.number().int().describe("Its screenings on the shared identities"),
  blocked: z.boolean().describe("One of them was blocked"),
  denied: z.boolean().describe("One of them was denied in review"),
  fraud: z.boolean().describe("One of them is labelled fraud (its newest label)"),
  through: z.array(z.enum(LINK_KINDS)).describe("The kinds of identity it shares"),
});
export type LinkedAccount = z.infer<typeof ZLinkedAccount>;

/**
 * One screening with its review state and labels (GET /api/v1/screenings/{id}): the history
 * page's row, so the detail shows everything the list does; and its linked accounts.
 */
export const ZScreeningDetail = ZScreeningRow.extend({
  /** Null for a screening that was not a review. */
  review: ZReviewState.nullable(),
  labels: z.array(ZLabelView),
  linked: ZLinkedSummary.nullable().describe(
    "The linked accounts as counted when it was screened; null for screenings stored before",
  ),
  linked_accounts: z
    .array(ZLinkedAccount)
    .describe("The linked accounts as read now, newest first (at most 50)"),
  linked_hubs: z
    .array(ZLinkCount)
    .describe("Its identities shared by more than 25 accounts, which link nobody"),
  score_note: z
    .string()
    .optional()
    .describe(
      "When its score reached the level Warden acts at and nothing acted on it, why, read against the thresholds in force now (as the screening's answer said it)",
    ),
});
export type ScreeningDetail = z.infer<typeof ZScreeningDetail>;

/** A charge's review after it was settled in the queue (review.settle with kind charge). */
export const ZChargeReviewDetail = z.object({
  kind: z.literal("charge"),
  id: z.string(),
  email: z.string().nullable(),
  reasons: z.array(ZReason),
  review: ZReviewState,
  labels: z.array(ZLabelView),
});
export type ChargeReviewDetail = z.infer<typeof ZChargeReviewDetail>;
