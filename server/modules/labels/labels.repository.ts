/** The only code that touches the database for labels (append-only: rows are never updated). */
import type {
  LabelSource,
  LabelSubjectKind,
  LabelValue,
  LabelView,
} from "../../../shared/schemas/labels.ts";
import type { PrismaClient } from "../../db/generated/client.ts";

type Row = {
  id: string;
  subjectKind: LabelSubjectKind;
  subjectId: string;
  label: LabelValue;
  source: LabelSource;
  who: string;
  note: string | null;
  createdAt: Date;
};

export type NewLabel = {
  subjectKind: LabelSubjectKind;
  subjectId: string;
  label: LabelValue;
  source: LabelSource;
  who: string;
  note: string | null;
  sourceRef?: string | null;
};

export const toLabelView = (row: Row): LabelView => ({
  id: row.id,
  subject_kind: row.subjectKind,
  subject_id: row.subjectId,
  label: row.label,
  source: row.source,
  who: row.who,
  note: row.note,
  created_at: row.createdAt.toISOString(),
});

export function createLabelsRepository(prisma: PrismaClient) {
  return {
    async add(accountId: string, label: NewLabel, at: Date): Promise<LabelView> {
      return toLabelView(
        await prisma.label.create({ data: { accountId, ...label, createdAt: at } }),
      );
    },

    /** Adds the label unless one with the same sourceRef exists (a redelivered Stripe event). */
    async addOnce(
      accountId: string,
      label: NewLabel & { sourceRef: string },
      at: Date,
    ): Promise<LabelView | null> {
      const rows = await prisma.label.createManyAndReturn({
        data: [{ accountId, ...label, createdAt: at }],
        skipDuplicates: true,
      });
      return rows[0] ? toLabelView(rows[0]) : null;
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
  };
}

export type LabelsRepository = ReturnType<typeof createLabelsRepository>;
