/**
 * A person's second factor in the database: the sealed TOTP secret (and the one being set up),
 * the last time step accepted, and their recovery codes (SHA-256 only). Accepting a step and
 * spending a recovery code are each one conditional UPDATE, so two requests racing with the
 * same code let exactly one through.
 */
import type { PrismaClient } from "../../db/generated/client.ts";

export function createTwoFactorRepository(prisma: PrismaClient) {
  return {
    findUser(userId: string) {
      return prisma.user.findUnique({
        where: { id: userId },
        select: {
          id: true,
          email: true,
          passwordHash: true,
          totpSecret: true,
          totpPendingSecret: true,
          totpEnabledAt: true,
        },
      });
    },

    unusedRecoveryCodes(userId: string) {
      return prisma.recoveryCode.count({ where: { userId, usedAt: null } });
    },

    /** Whether any account the person belongs to requires a second factor. */
    async requiredByAnAccount(userId: string): Promise<boolean> {
      const count = await prisma.membership.count({
        where: { userId, account: { requireTwoFactor: true } },
      });
      return count > 0;
    },

    /** The accounts the person belongs to (their two-factor changes go to each one's log). */
    async accountIds(userId: string): Promise<string[]> {
      const rows = await prisma.membership.findMany({
        where: { userId },
        select: { accountId: true },
        orderBy: { createdAt: "asc" },
      });
      return rows.map((row) => row.accountId);
    },

    setPendingSecret(userId: string, sealed: string) {
      return prisma.user.update({ where: { id: userId }, data: { totpPendingSecret: sealed } });
    },

    /**
     * Turns the second factor on with the confirmed secret and new recovery codes; false when
     * it was turned on meanwhile or the secret being confirmed was replaced (another begin).
     */
    enable(
      userId: string,
      data: { pendingSealed: string; secretSealed: string; step: bigint; at: Date },
      codeHashes: string[],
    ): Promise<boolean> {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.user.updateMany({
          where: { id: userId, totpEnabledAt: null, totpPendingSecret: data.pendingSealed },
          data: {
            totpSecret: data.secretSealed,
            totpPendingSecret: null,
            totpEnabledAt: data.at,
            totpLastStep: data.step,
          },
        });
        if (count !== 1) return false;
        await tx.recoveryCode.deleteMany({ where: { userId } });
        await tx.recoveryCode.createMany({
          data: codeHashes.map((codeHash) => ({ userId, codeHash })),
        });
        return true;
      });
    },

    disable(userId: string) {
      return prisma.$transaction([
        prisma.user.update({
          where: { id: userId },
          data: {
            totpSecret: null,
            totpPendingSecret: null,
            totpEnabledAt: null,
            totpLastStep: null,
          },
        }),
        prisma.recoveryCode.deleteMany({ where: { userId } }),
      ]);
    },

    replaceRecoveryCodes(userId: string, codeHashes: string[]) {
      return prisma.$transaction([
        prisma.recoveryCode.deleteMany({ where: { userId } }),
        prisma.recoveryCode.createMany({
          data: codeHashes.map((codeHash) => ({ userId, codeHash })),
        }),
      ]);
    },

    /** Records `step` as used; false when it (or a later one) was accepted already. */
    async acceptStep(userId: string, step: bigint): Promise<boolean> {
      const { count } = await prisma.user.updateMany({
        where: {
          id: userId,
          totpEnabledAt: { not: null },
          OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }],
        },
        data: { totpLastStep: step },
      });
      return count === 1;
    },

    /** Spends the recovery code with this hash; false when there is none unused. */
    async spendRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
      const { count } = await prisma.recoveryCode.updateMany({
        where: { userId, codeHash, usedAt: null },
        data: { usedAt: at },
      });
      return count === 1;
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
