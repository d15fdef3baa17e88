/** The health check's one query: is the database answering? */
import type { PrismaClient } from "../../db/generated/client.ts";

export function createHealthRepository(prisma: PrismaClient) {
  return {
    async ping(): Promise<void> {
      await prisma.$queryRaw`SELECT 1`;
    },
  };
}
