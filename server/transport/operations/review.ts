/** The console's Review page, labels and the allow list: an analyst's decisions. */
import { z } from "zod";
import {
  ZAllowEntryInput,
  ZAllowEntryRef,
  ZAllowEntryView,
} from "../../../shared/schemas/allow-list.ts";
import {
  ZBulkLabelInput,
  ZBulkLabelResult,
  ZLabelBatchRef,
  ZLabelCounts,
  ZLabelUndoResult,
} from "../../../shared/schemas/bulk-labels.ts";
import {
  ZLabelHistory,
  ZLabelInput,
  ZLabelSubject,
  ZLabelView,
} from "../../../shared/schemas/labels.ts";
import {
  ZChargeReviewDetail,
  ZReviewBulkInput,
  ZReviewCount,
  ZReviewFilters,
  ZReviewPage,
  ZReviewQueueInput,
  ZReviewSettleInput,
  ZScreeningDetail,
  ZScreeningRef,
} from "../../../shared/schemas/review.ts";
import { byId, op } from "../operation.ts";

export const review = {
  queue: op({
    need: "read",
    kind: "query",
    input: ZReviewQueueInput,
    output: ZReviewPage,
    handler: ({ services, caller }, input) => services.review.queue(caller.accountId, input),
  }),
  count: op({
    need: "read",
    kind: "query",
    output: ZReviewCount,
    handler: ({ services, caller }) => services.review.count(caller.accountId),
  }),
  /** How many open items the filters match: what Approve all / Deny all would settle. */
  matching: op({
    need: "read",
    kind: "query",
    input: ZReviewFilters,
    output: ZReviewCount,
    handler: ({ services, caller }, input) => services.review.count(caller.accountId, input),
  }),
  settle: op({
    need: "review",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZReviewSettleInput,
    output: z.union([ZScreeningDetail, ZChargeReviewDetail]),
    handler: ({ services, caller, session }, { id, kind, ...decision }) =>
      kind === "charge"
        ? services.review.settleCharge(caller.accountId, id, decision, session.user.email)
        : services.review.settle(caller.accountId, id, decision, session.user.email),
  }),
  bulk: op({
    need: "review",
    audit: true,
    kind: "mutation",
    input: ZReviewBulkInput,
    output: z.object({ settled: z.number().int() }),
    handler: ({ services, caller, session }, input) =>
      services.review.settleFiltered(
        caller.accountId,
        input.filters,
        input.decision,
        input.note,
        session.user.email,
      ),
  }),
  detail: op({
    need: "read",
    kind: "query",
    input: ZScreeningRef,
    output: ZScreeningDetail,
    handler: ({ services, caller }, input) => services.review.detail(caller.accountId, input.id),
  }),
};

/** The console: label a screening or charge, and read a subject's label history. */
export const labels = {
  add: op({
    need: "review",
    audit: true,
    target: (input: { subject_id?: string }) => input?.subject_id,
    kind: "mutation",
    input: ZLabelInput,
    output: ZLabelView,
    handler: ({ services, caller, session }, input) =>
      services.labels.add(caller.accountId, input, {
        source: "person",
        who: session.user.email,
        whoId: session.user.id,
      }),
  }),
  history: op({
    need: "read",
    kind: "query",
    input: ZLabelSubject,
    output: ZLabelHistory,
    handler: ({ services, caller }, input) => services.labels.history(caller.accountId, input),
  }),
  /** Select and label: many screenings or charges as one batch, undone at once. */
  bulk: op({
    need: "review",
    audit: true,
    kind: "mutation",
    input: ZBulkLabelInput,
    output: ZBulkLabelResult,
    handler: ({ services, caller, session }, input) =>
      services.labels.bulk(caller.accountId, input, {
        source: "person",
        who: session.user.email,
        whoId: session.user.id,
      }),
  }),
  undo: op({
    need: "review",
    audit: true,
    target: (input: { batch_id?: string }) => input?.batch_id,
    kind: "mutation",
    input: ZLabelBatchRef,
    output: ZLabelUndoResult,
    handler: ({ services, caller }, input) =>
      services.labels.undo(caller.accountId, input.batch_id),
  }),
  /** The labelled screenings, as Risk score and Test on history both count them. */
  counts: op({
    need: "read",
    kind: "query",
    output: ZLabelCounts,
    handler: ({ services, caller }) => services.scoreModels.labelCounts(caller.accountId),
  }),
};

/** The console's allow list, beside the block lists. */
export const allowList = {
  list: op({
    need: "read",
    kind: "query",
    output: z.array(ZAllowEntryView),
    handler: ({ services, caller }) => services.allowList.list(caller.accountId),
    rest: {
      method: "GET",
      path: "/allowlist",
      tag: "allowlist",
      summary: "Values always allowed, whatever the rules say (the block list still wins)",
    },
  }),
  add: op({
    need: "review",
    audit: true,
    kind: "mutation",
    input: ZAllowEntryInput,
    output: ZAllowEntryView,
    handler: ({ services, caller, session }, input) =>
      services.allowList.add(caller.accountId, input, session.user.email),
    rest: {
      method: "POST",
      path: "/allowlist",
      tag: "allowlist",
      summary: "Allow a user id, email, email domain, device, card or address range",
      examples: { body: { kind: "email", value: "vip@example.com", note: "key account" } },
    },
  }),
  remove: op({
    need: "review",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZAllowEntryRef,
    handler: ({ services, caller }, input) => services.allowList.remove(caller.accountId, input.id),
    rest: {
      method: "DELETE",
      path: "/allowlist/:id",
      tag: "allowlist",
      summary: "Remove an entry: screenings are judged by the rules alone again",
      response: null,
      errors: [404],
    },
  }),
};
