/**
 * Labels use cases: a person or the merchant's backend labels a screening or a charge; Stripe
 * labels a charge fraud when it reports a fraud dispute or an early fraud warning. Every
 * label is a new row, so changing one keeps the earlier one as history.
 */

import { randomUUID } from "node:crypto";
import {
  type BulkLabelInput,
  type BulkLabelResult,
  type LabelUndoResult,
  ZBulkLabelInput,
} from "../../../shared/schemas/bulk-labels.ts";
import {
  type LabelInput,
  type LabelSource,
  type LabelSubject,
  type LabelView,
  ZLabelInput,
  ZLabelSubject,
} from "../../../shared/schemas/labels.ts";
import { AppError } from "../../lib/app-error.ts";
import type { DecisionEvent } from "../webhooks/webhooks.types.ts";
import type { LabelsRepository } from "./labels.repository.ts";

/**
 * Who set a label: a console user (person: their email, and their user id) or an API key
 * (api: "API key 1a2b3c4d", and its id).
 */
export type Labeller = { source: Exclude<LabelSource, "stripe">; who: string; whoId: string };

type Deps = {
  repo: LabelsRepository;
  now: () => Date;
  /** The decision event that reports a new label, stored with it (decision webhooks). */
  eventOf?: (label: LabelView) => DecisionEvent;
  /** Told after a label and its event are committed (the webhooks worker sends it). */
  eventsStored?: () => void;
};

export function createLabelsService({ repo, now, eventOf, eventsStored }: Deps) {
  const events = eventOf ? (label: LabelView) => [eventOf(label)] : undefined;

  async function assertSubject(accountId: string, subject: LabelSubject) {
    const exists =
      subject.subject_kind === "screening"
        ? await repo.screeningExists(accountId, subject.subject_id)
        : await repo.chargeExists(accountId, subject.subject_id);
    if (!exists) {
      throw new AppError("NOT_FOUND", `No such ${subject.subject_kind} in this account.`);
    }
  }

  return {
    async add(accountId: string, raw: LabelInput, by: Labeller): Promise<LabelView> {
      const input = ZLabelInput.parse(raw);
      await assertSubject(accountId, input);
      const demo =
        input.subject_kind === "charge" && (await repo.isDemoCharge(accountId, input.subject_id));
      const label = await repo.add(
        accountId,
        {
          subjectKind: input.subject_kind,
          subjectId: input.subject_id,
          label: input.label,
          source: by.source,
          who: by.who,
          whoId: by.whoId,
          note: input.note || null,
        },
        now(),
        demo ? undefined : events,
      );
      if (!demo) eventsStored?.();
      return label;
    },

    /**
     * Labels many subjects as one batch (bulk-labels.ts); ids that name nothing in the account
     * come back as not found, never labelled, and say nothing of other accounts.
     */
    async bulk(accountId: string, raw: BulkLabelInput, by: Labeller): Promise<BulkLabelResult> {
      const input = ZBulkLabelInput.parse(raw);
      const batchId = randomUUID();
      const { labelled, notFound } = await repo.bulk(
        accountId,
        {
          subjectKind: input.subject_kind,
          label: input.label,
          source: by.source,
          who: by.who,
          whoId: by.whoId,
          note: input.note || null,
          batchId,
        },
        input.subject_ids,
        now(),
        events,
      );
      if (labelled.length > 0) eventsStored?.();
      return {
        batch_id: labelled.length > 0 ? batchId : null,
        label: input.label,
        labelled: labelled.length,
        not_found: notFound,
      };
    },

    /** Removes one bulk label's batch: each subject's earlier label is current again. */
    async undo(accountId: string, batchId: string): Promise<LabelUndoResult> {
      const undone = await repo.undo(accountId, batchId);
      if (!undone) throw new AppError("NOT_FOUND", "No such batch of labels in this account.");
      return { batch_id: batchId, removed: undone.removed };
    },

    async history(accountId: string, raw: LabelSubject): Promise<LabelView[]> {
      const subject = ZLabelSubject.parse(raw);
      return repo.history(accountId, subject.subject_kind, subject.subject_id);
    },

    latest: repo.latest,

    /**
     * Stripe said a charge was fraud (`why`: the event type and reason). Once per Stripe
     * event, so a redelivery adds nothing; the charge's row may not exist yet.
     */
    async fromStripe(accountId: string, chargeId: string, eventId: string, why: string) {
      // The demo's fraud reports label its charges but never reach the merchant's endpoints.
      const demo = await repo.isDemoCharge(accountId, chargeId);
      const label = await repo.addOnce(
        accountId,
        {
          subjectKind: "charge",
          subjectId: chargeId,
          label: "fraud",
          source: "stripe",
          who: "Stripe",
          whoId: null,
          note: why,
          sourceRef: `stripe:${eventId}`,
        },
        now(),
        demo ? undefined : events,
      );
      if (label && !demo) eventsStored?.();
    },
  };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
