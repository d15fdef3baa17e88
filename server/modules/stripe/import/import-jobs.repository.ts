/** History imports and their progress, for the Settings page. */
import type { PrismaClient } from "../../../db/generated/client.ts";

export function createImportJobsRepository(prisma: PrismaClient) {
  return {
    create(accountId: string, days: number) {
      return prisma.importJob.create({ data: { accountId, days } });
    },
    latest(accountId: string) {
      return prisma.importJob.findFirst({ where: { accountId }, orderBy: { startedAt: "desc" } });
    },
    progress(id: string, imported: number, progress: number) {
      return prisma.importJob.update({ where: { id }, data: { imported, progress } });
    },
    finish(id: string, result: { imported: number; status: "done" | "failed"; error?: string }) {
      return prisma.importJob.update({
        where: { id },
        data: {
          imported: result.imported,
          status: result.status,
          error: result.error ?? null,
          progress: result.status === "done" ? 100 : undefined,
          finishedAt: new Date(),
        },
      });
    },
  };
}

export type ImportJobsRepository = ReturnType<typeof createImportJobsRepository>;
