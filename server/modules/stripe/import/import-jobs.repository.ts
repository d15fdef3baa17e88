/**
 * History imports and their progress, for the Settings page. A running job renews its
 * heartbeat; one whose heartbeat is older than the stale limit died with its process (a
 * crash, a restart) and no longer blocks the next import.
 */
import type { ImportJob, PrismaClient } from "../../../db/generated/client.ts";

export const INTERRUPTED =
  "Interrupted: the server stopped during the import. Importing again is safe (charges already imported are not duplicated).";

export function createImportJobsRepository(prisma: PrismaClient) {
  const repo = {
    /**
     * Starts a job unless a live one runs, and returns the one that runs. A running job whose
     * heartbeat is older than `staleMs` is ended first. At most one job per account is running
     * (a unique partial index), so two clicks at once start one import.
     */
    async claim(
      accountId: string,
      days: number,
      now: Date,
      staleMs: number,
    ): Promise<{ job: ImportJob; started: boolean }> {
      await prisma.importJob.updateMany({
        where: {
          accountId,
          status: "running",
          heartbeatAt: { lt: new Date(now.getTime() - staleMs) },
        },
        data: { status: "failed", error: INTERRUPTED, finishedAt: now },
      });
      const [job] = await prisma.importJob.createManyAndReturn({
        data: [{ accountId, days, heartbeatAt: now }],
        skipDuplicates: true,
      });
      if (job) return { job, started: true };
      const running = await prisma.importJob.findFirst({ where: { accountId, status: "running" } });
      // It ended between the insert and this read: try once more.
      return running ? { job: running, started: false } : repo.claim(accountId, days, now, staleMs);
    },
    latest(accountId: string) {
      return prisma.importJob.findFirst({ where: { accountId }, orderBy: { startedAt: "desc" } });
    },
    progress(id: string, imported: number, progress: number, now: Date) {
      return prisma.importJob.update({
        where: { id },
        data: { imported, progress, heartbeatAt: now },
      });
    },
    heartbeat(id: string, now: Date) {
      return prisma.importJob.updateMany({
        where: { id, status: "running" },
        data: { heartbeatAt: now },
      });
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
  return repo;
}

export type ImportJobsRepository = ReturnType<typeof createImportJobsRepository>;
