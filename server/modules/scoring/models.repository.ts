/**
 * The only code that touches Prisma for a merchant's fitted weights (ScoreModel): versions
 * proposed, adopted and retired. Adopting and rolling back are each one transaction, and the
 * partial unique index "ScoreModel_one_adopted" lets one adopted version exist per account:
 * of two adopts at once, the second finds its target taken or trips the index, and is told
 * "raced" with nothing changed. An adopted version keeps the warnings its adopter confirmed.
 */
import type { ModelMetrics } from "../../../shared/schemas/score-models.ts";
import type { Weights } from "../../../shared/score/weights.ts";
import type { Prisma, PrismaClient, ScoreModel } from "../../db/generated/client.ts";

export type ModelRow = ScoreModel;

export type NewModel = { weights: Weights; metrics: ModelMetrics; createdBy: string };

const json = (value: object) => value as unknown as Prisma.InputJsonObject;

export type Adopted =
  | { outcome: "adopted"; model: ModelRow }
  | { outcome: "missing" }
  | { outcome: "already"; model: ModelRow }
  | { outcome: "raced" };

export type RolledBack =
  | { outcome: "rolled-back"; retired: ModelRow; restored: ModelRow | null }
  | { outcome: "nothing" }
  | { outcome: "raced" };

/** Thrown inside a transaction to undo it when another one changed the rows first. */
class Raced extends Error {}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";

/** Runs `work`; "raced" when another transaction won (Raced thrown, or the index tripped). */
async function unlessRaced<T>(work: () => Promise<T>): Promise<T | { outcome: "raced" }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Raced || isUniqueViolation(error)) return { outcome: "raced" };
    throw error;
  }
}

export function createModelsRepository(prisma: PrismaClient) {
  return {
    /** The newest versions first. */
    list(accountId: string, take: number): Promise<ModelRow[]> {
      return prisma.scoreModel.findMany({
        where: { accountId },
        orderBy: { version: "desc" },
        take,
      });
    },

    find(accountId: string, id: string): Promise<ModelRow | null> {
      return prisma.scoreModel.findFirst({ where: { id, accountId } });
    },

    adopted(accountId: string): Promise<ModelRow | null> {
      return prisma.scoreModel.findFirst({ where: { accountId, status: "adopted" } });
    },

    /** Stores a proposal as the next version (a version taken meanwhile: the one after). */
    async propose(accountId: string, modelOf: (version: number) => NewModel): Promise<ModelRow> {
      for (let attempt = 1; ; attempt++) {
        const last = await prisma.scoreModel.findFirst({
          where: { accountId },
          orderBy: { version: "desc" },
          select: { version: true },
        });
        try {
          const version = (last?.version ?? 0) + 1;
          const { weights, metrics, createdBy } = modelOf(version);
          return await prisma.scoreModel.create({
            data: {
              accountId,
              version,
              status: "proposed",
              weights: json(weights),
              metrics: json(metrics),
              createdBy,
            },
          });
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 5) throw error;
        }
      }
    },

    /**
     * Adopts a proposed (or retired) version and retires the one adopted before, at once.
     * Its adoptedAt is now: it goes on top of what a rollback walks back through.
     */
    adopt(
      accountId: string,
      id: string,
      by: string,
      at: Date,
      confirmedWarnings: string[],
    ): Promise<Adopted> {
      return unlessRaced(() =>
        prisma.$transaction(async (tx): Promise<Adopted> => {
          const target = await tx.scoreModel.findFirst({ where: { id, accountId } });
          if (!target) return { outcome: "missing" };
          if (target.status === "adopted") return { outcome: "already", model: target };
          await tx.scoreModel.updateMany({
            where: { accountId, status: "adopted" },
            data: { status: "retired" },
          });
          const done = await tx.scoreModel.updateMany({
            where: { id, accountId, status: target.status },
            data: { status: "adopted", adoptedAt: at, adoptedBy: by, confirmedWarnings },
          });
          if (done.count === 0) throw new Raced();
          return {
            outcome: "adopted",
            model: {
              ...target,
              status: "adopted",
              adoptedAt: at,
              adoptedBy: by,
              confirmedWarnings,
            },
          };
        }),
      );
    },

    /**
     * Retires the adopted version and adopts again the one adopted before it (the retired
     * version with the latest adoptedAt before its own; its adoptedAt is kept, so a second
     * rollback goes one further back), or none: the defaults apply.
     */
    rollback(accountId: string): Promise<RolledBack> {
      return unlessRaced(() =>
        prisma.$transaction(async (tx): Promise<RolledBack> => {
          const current = await tx.scoreModel.findFirst({
            where: { accountId, status: "adopted" },
          });
          if (!current) return { outcome: "nothing" };
          const retired = await tx.scoreModel.updateMany({
            where: { id: current.id, status: "adopted" },
            data: { status: "retired" },
          });
          if (retired.count === 0) throw new Raced();
          const previous = current.adoptedAt
            ? await tx.scoreModel.findFirst({
                where: {
                  accountId,
                  status: "retired",
                  id: { not: current.id },
                  // Adopted in the same millisecond: the lower version counts as the earlier.
                  OR: [
                    { adoptedAt: { lt: current.adoptedAt } },
                    { adoptedAt: current.adoptedAt, version: { lt: current.version } },
                  ],
                },
                orderBy: [{ adoptedAt: "desc" }, { version: "desc" }],
              })
            : null;
          if (previous) {
            const restored = await tx.scoreModel.updateMany({
              where: { id: previous.id, status: "retired" },
              data: { status: "adopted" },
            });
            if (restored.count === 0) throw new Raced();
          }
          return {
            outcome: "rolled-back",
            retired: { ...current, status: "retired" },
            restored: previous ? { ...previous, status: "adopted" } : null,
          };
        }),
      );
    },
  };
}

export type ModelsRepository = ReturnType<typeof createModelsRepository>;
