/**
 * The only code that touches Prisma for the risk score's per-merchant state: the merchant's own
 * thresholds (ScoreSettings) and its fitted weights (ScoreModel: proposed, adopted, retired).
 */
import {
  type Thresholds,
  type Weights,
  ZThresholds,
  ZWeights,
} from "../../../shared/score/weights.ts";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

export function createScoringRepository(prisma: PrismaClient) {
  return {
    /** The merchant's own thresholds ({} when it set none). */
    async thresholds(accountId: string): Promise<Thresholds> {
      const row = await prisma.scoreSettings.findUnique({ where: { accountId } });
      const parsed = ZThresholds.safeParse(row?.thresholds ?? {});
      return parsed.success ? parsed.data : {};
    },

    async saveThresholds(accountId: string, thresholds: Thresholds): Promise<void> {
      const value = thresholds as Prisma.InputJsonObject;
      await prisma.scoreSettings.upsert({
        where: { accountId },
        create: { accountId, thresholds: value },
        update: { thresholds: value },
      });
    },

    /** The adopted weights, or null: the shipped defaults apply. */
    async adoptedWeights(accountId: string): Promise<Weights | null> {
      const row = await prisma.scoreModel.findFirst({ where: { accountId, status: "adopted" } });
      if (!row) return null;
      const parsed = ZWeights.safeParse(row.weights);
      return parsed.success ? parsed.data : null;
    },
  };
}

export type ScoringRepository = ReturnType<typeof createScoringRepository>;
