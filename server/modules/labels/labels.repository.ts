/**
 * The only code that touches the database for labels (append-only: rows are never updated).
 * A new label, the decision events that report it and, for a screening, the flagged mark on its
 * counting rows (set by fraud, cleared by legitimate: decision 023) are stored in one transaction.
 */
import type {
  LabelSource,
  LabelSubjectKind,
  LabelValue,
  LabelView,
} from "../../../shared/schemas/labels.ts";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import type { FlagMarks } from "../links/links.service.ts";
import type { DecisionEvent, EventOutbox } from "../webhooks/webhooks.types.ts";

export type NewLabel = {
  subjectKind: LabelSubjectKind;
  subjectId: string;
  label: LabelValue;
  source: LabelSource;
  who: string;
  /** The member's user id or the API key's id; null for Stripe's. */
  whoId: string | null;
  note: string | null;
  sourceRef?: string | null;
};

/** A stored label: what was added, with its id and time. */
type Row = Omit<NewLabel, "sourceRef"> & { id: string; createdAt: Date };

export const toLabelView = (row: Row): LabelView => ({
  id: row.id,
  subject_kind: row.subjectKind,
  subject_id: row.subjectId,
  label: row.label,
  source: row.source,
  who: row.who,
  who_id: row.whoId,
  note: row.note,
  created_at: row.createdAt.toISOString(),
});

/** The decision events a stored label is reported by (none without an outbox). */
export type LabelEvents = (label: LabelView) => DecisionEvent[];

export function createLabelsRepository(
  prisma: PrismaClient,
  outbox?: EventOutbox,
  marks?: FlagMarks,
) {
  /** A stored label's events, and a screening's mark, in its transaction. */
  async function alongside(
    tx: Prisma.TransactionClient,
    accountId: string,
    view: LabelView,
    events?: LabelEvents,
  ) {
    if (outbox && events) await outbox.stage(tx, accountId, events(view));
    if (marks && view.subject_kind === "screening") {
      await marks.mark(tx, accountId, [view.subject_id], view.label === "fraud");
    }
  }
  return {
    /** Adds the label, and stages its events in the same transaction. */
    add(accountId: string, label: NewLabel, at: Date, events?: LabelEvents): Promise<LabelView> {
      return prisma.$transaction(async (tx) => {
        const view = toLabelView(
          await tx.label.create({ data: { accountId, ...label, createdAt: at } }),
        );
        await alongside(tx, accountId, view, events);
        return view;
      });
    },

    /**
     * Adds the label unless one with the same sourceRef exists (a redelivered Stripe event),
     * and stages its events in the same transaction; null (and no events) when it existed.
     */
    addOnce(
      accountId: string,
      label: NewLabel & { sourceRef: string },
      at: Date,
      events?: LabelEvents,
    ): Promise<LabelView | null> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.label.createManyAndReturn({
          data: [{ accountId, ...label, createdAt: at }],
          skipDuplicates: true,
        });
        const view = rows[0] ? toLabelView(rows[0]) : null;
        if (view) await alongside(tx, accountId, view, events);
        return view;
      });
    },

    /**
     * Labels every subject of `subjectIds` in the account as one batch, in one transaction:
     * the subjects' rows are locked first (in id order, so two bulk labels over the same
     * subjects queue rather than interleave) and the batch is stamped after any label they
     * already have, so the newest label and the flagged mark always agree. Ids that name
     * nothing in the account are returned, not labelled.
     */
    bulk(
      accountId: string,
      batch: Omit<NewLabel, "subjectId" | "sourceRef"> & { batchId: string },
      subjectIds: readonly string[],
      at: Date,
      events?: LabelEvents,
    ): Promise<{ labelled: LabelView[]; notFound: string[] }> {
      return prisma.$transaction(async (tx) => {
        const ids = [...subjectIds];
        const found =
          batch.subjectKind === "screening"
            ? await tx.$queryRaw<{ id: string; demo: boolean }[]>`
                SELECT "id", false AS "demo" FROM "Screening"
                WHERE "accountId" = ${accountId} AND "id" = ANY (${ids}::text[])
                ORDER BY "id" FOR UPDATE`
            : await tx.$queryRaw<{ id: string; demo: boolean }[]>`
                SELECT "chargeId" AS "id", "demo" FROM "Transaction"
                WHERE "accountId" = ${accountId} AND "chargeId" = ANY (${ids}::text[])
                ORDER BY "chargeId" FOR UPDATE`;
        const present = new Set(found.map((row) => row.id));
        const notFound = ids.filter((id) => !present.has(id));
        if (found.length === 0) return { labelled: [], notFound };
        const [newest] = await tx.$queryRaw<{ at: Date | null }[]>`
          SELECT max("createdAt") AS "at" FROM "Label"
          WHERE "accountId" = ${accountId} AND "subjectKind"::text = ${batch.subjectKind}
            AND "subjectId" = ANY (${[...present]}::text[])`;
        const after = newest?.at ? new Date(newest.at).getTime() + 1 : 0;
        const createdAt = new Date(Math.max(at.getTime(), after));
        const rows = await tx.label.createManyAndReturn({
          data: found.map((row) => ({ accountId, ...batch, subjectId: row.id, createdAt })),
        });
        const demo = new Set(found.filter((row) => row.demo).map((row) => row.id));
        const labelled = rows.map(toLabelView);
        if (outbox && events) {
          const reported = labelled.filter((view) => !demo.has(view.subject_id));
          await outbox.stage(tx, accountId, reported.flatMap(events));
        }
        if (marks && batch.subjectKind === "screening") {
          await marks.mark(tx, accountId, [...present], batch.label === "fraud");
        }
        return { labelled, notFound };
      });
    },

    /**
     * Removes the batch's labels (a bulk label undone), its subjects locked as `bulk` locks
     * them; each screening's flagged mark follows the label that is current again (none:
     * cleared). Null when the account has no such batch.
     */
    undo(accountId: string, batchId: string): Promise<{ removed: number } | null> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.label.findMany({
          where: { accountId, batchId },
          select: { subjectKind: true, subjectId: true },
        });
        const first = rows[0];
        if (!first) return null;
        const kind = first.subjectKind;
        const ids = [...new Set(rows.map((row) => row.subjectId))].sort();
        if (kind === "screening") {
          await tx.$queryRaw`
            SELECT "id" FROM "Screening"
            WHERE "accountId" = ${accountId} AND "id" = ANY (${ids}::text[])
            ORDER BY "id" FOR UPDATE`;
        } else {
          await tx.$queryRaw`
            SELECT "chargeId" FROM "Transaction"
            WHERE "accountId" = ${accountId} AND "chargeId" = ANY (${ids}::text[])
            ORDER BY "chargeId" FOR UPDATE`;
        }
        const { count } = await tx.label.deleteMany({ where: { accountId, batchId } });
        if (marks && kind === "screening") {
          const current = await tx.label.findMany({
            where: { accountId, subjectKind: kind, subjectId: { in: ids } },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            distinct: ["subjectId"],
            select: { subjectId: true, label: true },
          });
          const labelled = new Set(current.map((row) => row.subjectId));
          // Without a label, the mark is the review's own again: set when it was denied.
          const denied = await tx.screening.findMany({
            where: {
              accountId,
              id: { in: ids.filter((id) => !labelled.has(id)) },
              reviewStatus: "denied",
            },
            select: { id: true },
          });
          const fraud = new Set([
            ...current.filter((row) => row.label === "fraud").map((row) => row.subjectId),
            ...denied.map((row) => row.id),
          ]);
          await marks.mark(tx, accountId, [...fraud], true);
          await marks.mark(
            tx,
            accountId,
            ids.filter((id) => !fraud.has(id)),
            false,
          );
        }
        return { removed: count };
      });
    },

    async history(accountId: string, subjectKind: LabelSubjectKind, subjectId: string) {
      const rows = await prisma.label.findMany({
        where: { accountId, subjectKind, subjectId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 100,
      });
      return rows.map(toLabelView);
    },

    /** The newest label of each subject that has one. */
    async latest(
      accountId: string,
      subjectKind: LabelSubjectKind,
      subjectIds: readonly string[],
    ): Promise<Map<string, LabelView>> {
      if (subjectIds.length === 0) return new Map();
      const rows = await prisma.label.findMany({
        where: { accountId, subjectKind, subjectId: { in: [...subjectIds] } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        distinct: ["subjectId"],
      });
      return new Map(rows.map((row) => [row.subjectId, toLabelView(row)]));
    },

    async screeningExists(accountId: string, id: string): Promise<boolean> {
      return (await prisma.screening.count({ where: { accountId, id } })) > 0;
    },

    async chargeExists(accountId: string, chargeId: string): Promise<boolean> {
      return (await prisma.transaction.count({ where: { accountId, chargeId } })) > 0;
    },

    /** Whether the charge is one of the demo's (its labels report to no webhook). */
    async isDemoCharge(accountId: string, chargeId: string): Promise<boolean> {
      const row = await prisma.transaction.findUnique({
        where: { accountId_chargeId: { accountId, chargeId } },
        select: { demo: true },
      });
      return row?.demo ?? false;
    },
  };
}

export type LabelsRepository = ReturnType<typeof createLabelsRepository>;
