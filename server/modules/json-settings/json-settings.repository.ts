/**
 * The only code that touches Prisma for a merchant's JSON settings objects: the rule flags
 * (RuleSettings), the template flags (TemplateSettings) and each rule's action, mode and
 * parameters (RuleParameterSettings). Each is one JSON value per account, created with
 * defaults on first read.
 */
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";

export type JsonSettingsTable = "rules" | "templates" | "ruleParameters";

export function createJsonSettingsRepository(prisma: PrismaClient, table: JsonSettingsTable) {
  // The two delegates have the same shape; one of them stands for both to the type checker.
  const delegates = {
    rules: prisma.ruleSettings,
    templates: prisma.templateSettings,
    ruleParameters: prisma.ruleParameterSettings,
  };
  const rows = delegates[table] as typeof prisma.ruleSettings;

  return {
    /** The stored JSON, creating the row with `defaults` on first read. */
    async findOrCreate(accountId: string, defaults: Prisma.InputJsonObject): Promise<unknown> {
      const existing = await rows.findUnique({ where: { accountId } });
      if (existing) return existing.values;
      await rows.createMany({ data: [{ accountId, values: defaults }], skipDuplicates: true });
      const row = await rows.findUniqueOrThrow({ where: { accountId } });
      return row.values;
    },

    async save(accountId: string, values: Prisma.InputJsonObject): Promise<void> {
      await rows.upsert({
        where: { accountId },
        create: { accountId, values },
        update: { values },
      });
    },
  };
}

export type JsonSettingsRepository = ReturnType<typeof createJsonSettingsRepository>;
