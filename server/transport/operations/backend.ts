/**
 * A merchant's backend, with `Authorization: Bearer <secret API key>`: screening (POST
 * /api/v1/screen), the decision loop (labels; reading and settling a screening or a charge
 * the rules sent to review) and an end user's data rights (docs/privacy.md, decision 029).
 */
import {
  BULK_LABELS_MAX,
  ZBulkLabelInput,
  ZBulkLabelResult,
  ZLabelBatchRef,
  ZLabelUndoResult,
} from "../../../shared/schemas/bulk-labels.ts";
import {
  ZEndUserExport,
  ZEndUserSelector,
  ZErasureResult,
} from "../../../shared/schemas/end-users.ts";
import { ZLabelInput, ZLabelView } from "../../../shared/schemas/labels.ts";
import {
  ZChargeRef,
  ZChargeReviewDetail,
  ZReviewDecisionInput,
  ZScreeningDetail,
  ZScreeningRef,
  ZScreeningSettleInput,
} from "../../../shared/schemas/review.ts";
import { ZScreenInput, ZScreenResult } from "../../../shared/schemas/screening.ts";
import { ZScreeningsApiPage, ZScreeningsApiQuery } from "../../../shared/schemas/screenings-api.ts";
import { storedScoreNote } from "../../../shared/score/score-note.ts";
import { audits, byId, op } from "../operation.ts";
import { apiKeyLabeller } from "../who.ts";
import { endUserSummary } from "./privacy.ts";

const { result } = audits;

const SCREEN_EXAMPLE = {
  type: "signup",
  user_id: "u_123",
  email: "jane.doe@example.com",
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15",
  device_id: "d_9f2c",
  timezone: "America/New_York",
};

/** A charge's id and the decision (the path's id and the body of POST .../decision). */
const ZChargeSettleInput = ZReviewDecisionInput.extend(ZChargeRef.shape);
const subjectOf = (input: { subject_id?: string }) => input?.subject_id;

export const screening = {
  screen: op({
    need: "apiKey",
    kind: "mutation",
    input: ZScreenInput,
    output: ZScreenResult,
    handler: ({ services, caller }, input) => services.screening.screen(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/v1/screen",
      tag: "screening",
      summary: "Screen an event before it happens: allow, review or block, with reasons",
      errors: [429],
      examples: { body: SCREEN_EXAMPLE },
    },
  }),
};

export const labelsApi = {
  create: op({
    need: "apiKey",
    audit: true,
    target: subjectOf,
    kind: "mutation",
    input: ZLabelInput,
    output: ZLabelView,
    handler: ({ services, caller }, input) =>
      services.labels.add(caller.accountId, input, apiKeyLabeller(caller)),
    rest: {
      method: "POST",
      path: "/v1/labels",
      tag: "decisions",
      summary:
        "Label a screening or a charge fraud or legitimate (a new label keeps the old one as history)",
      errors: [404],
      examples: {
        body: { subject_kind: "screening", subject_id: "…", label: "fraud", note: "chargeback" },
      },
    },
  }),
  bulk: op({
    need: "apiKey",
    audit: true,
    kind: "mutation",
    trpc: false,
    input: ZBulkLabelInput,
    output: ZBulkLabelResult,
    handler: ({ services, caller }, input) =>
      services.labels.bulk(caller.accountId, input, apiKeyLabeller(caller)),
    rest: {
      method: "POST",
      path: "/v1/labels/bulk",
      tag: "decisions",
      summary: `Label up to ${BULK_LABELS_MAX} screenings or charges at once, as one batch that one call undoes; ids not in this account come back in not_found`,
      examples: {
        body: { subject_kind: "screening", subject_ids: ["…", "…"], label: "legitimate" },
      },
    },
  }),
  undo: op({
    need: "apiKey",
    audit: true,
    target: (input: { batch_id?: string }) => input?.batch_id,
    kind: "mutation",
    trpc: false,
    input: ZLabelBatchRef,
    output: ZLabelUndoResult,
    handler: ({ services, caller }, input) =>
      services.labels.undo(caller.accountId, input.batch_id),
    rest: {
      method: "DELETE",
      path: "/v1/labels/batches/:batch_id",
      tag: "decisions",
      summary:
        "Undo a bulk label: its labels are removed and each subject's earlier label is current again",
      errors: [404],
    },
  }),
};

export const screeningsApi = {
  list: op({
    need: "apiKey",
    kind: "query",
    trpc: false,
    input: ZScreeningsApiQuery,
    output: ZScreeningsApiPage,
    handler: ({ services, caller }, input) => services.screeningsApi.list(caller.accountId, input),
    rest: {
      method: "GET",
      path: "/v1/screenings",
      tag: "decisions",
      summary:
        "The account's screenings, newest first: filter by decision, type, from and to (ISO times or dates), labelled (true/false), label (fraud/legitimate) and email; up to limit (1-200, 50) a page, the next with cursor=next_cursor",
    },
  }),
  get: op({
    need: "apiKey",
    kind: "query",
    input: ZScreeningRef,
    output: ZScreeningDetail,
    // With the score note its answer had, read against the thresholds in force now, so a
    // script sees what the console's detail says (shared/score/score-note.ts).
    handler: async ({ services, caller }, input) => {
      const detail = await services.review.detail(caller.accountId, input.id);
      const note = storedScoreNote(detail, await services.scoreThresholds.get(caller.accountId));
      return note ? { ...detail, score_note: note.text } : detail;
    },
    rest: {
      method: "GET",
      path: "/v1/screenings/:id",
      tag: "decisions",
      summary:
        "One screening: its decision, reasons, review state, labels and linked accounts (other accounts sharing its device, email, card, referrer or IP in the 30 days before it)",
      errors: [404],
    },
  }),
  decide: op({
    need: "apiKey",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZScreeningSettleInput,
    output: ZScreeningDetail,
    handler: ({ services, caller }, { id, ...decision }) =>
      services.review.settle(caller.accountId, id, decision, apiKeyLabeller(caller).who),
    rest: {
      method: "POST",
      path: "/v1/screenings/:id/decision",
      tag: "decisions",
      summary: "Settle a screening answered `review`: approve or deny, with an optional note",
      params: ZScreeningRef,
      body: ZReviewDecisionInput,
      errors: [404, 409],
      examples: { body: { decision: "approve", note: "customer verified by phone" } },
    },
  }),
};

/** A charge the rules sent to review: REST only (the console settles it with review.settle). */
export const chargesApi = {
  get: op({
    need: "apiKey",
    kind: "query",
    trpc: false,
    input: ZChargeRef,
    output: ZChargeReviewDetail,
    handler: ({ services, caller }, input) =>
      services.review.chargeDetail(caller.accountId, input.id),
    rest: {
      method: "GET",
      path: "/v1/charges/:id",
      tag: "decisions",
      summary: "One charge's review: its state, the rules' reasons and its labels",
      errors: [404],
    },
  }),
  decide: op({
    need: "apiKey",
    audit: true,
    target: byId,
    kind: "mutation",
    trpc: false,
    input: ZChargeSettleInput,
    output: ZChargeReviewDetail,
    handler: ({ services, caller }, { id, ...decision }) =>
      services.review.settleCharge(caller.accountId, id, decision, apiKeyLabeller(caller).who),
    rest: {
      method: "POST",
      path: "/v1/charges/:id/decision",
      tag: "decisions",
      summary: "Settle a charge the rules sent to review: approve or deny, with an optional note",
      params: ZChargeRef,
      body: ZReviewDecisionInput,
      errors: [404, 409],
      examples: { body: { decision: "deny", note: "card reported stolen" } },
    },
  }),
};

/** An end user's data rights, REST only; the audit event keeps the selector kinds and counts. */
export const endUsersApi = {
  export: op({
    need: "apiKey",
    audit: result(endUserSummary),
    kind: "query",
    trpc: false,
    input: ZEndUserSelector,
    output: ZEndUserExport,
    handler: ({ services, caller }, input) => services.endUsers.export(caller.accountId, input),
    rest: {
      method: "GET",
      path: "/v1/end-users/export",
      tag: "decisions",
      summary:
        "Everything stored about one of your end users (by email, user_id, device_id or ip), each item with where it came from",
    },
  }),
  erase: op({
    need: "apiKey",
    audit: result(endUserSummary),
    kind: "mutation",
    trpc: false,
    input: ZEndUserSelector,
    output: ZErasureResult,
    handler: ({ services, caller }, input) => services.endUsers.erase(caller.accountId, input),
    rest: {
      method: "POST",
      path: "/v1/end-users/erase",
      tag: "decisions",
      summary:
        "Erase one of your end users (by email, user_id, device_id or ip) in one transaction; says what was erased and what is kept",
      examples: { body: { email: "customer@example.com" } },
    },
  }),
};
