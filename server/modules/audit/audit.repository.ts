/** The only code that touches Prisma for the audit log: append, read newest first, prune. */

import { ACCOUNT_NAME, accountName } from "../../db/account-name.ts";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import { escapeLike } from "../../db/like.ts";
import type { TargetFacts, TargetKind } from "./audit-labels.ts";

export type AuditRow = {
  accountId: string;
  at: Date;
  actorKind: "member" | "api_key" | "system";
  actorId: string | null;
  actor: string;
  ip: string | null;
  action: string;
  target: string | null;
  targetLabel: string | null;
  before: unknown;
  after: unknown;
};

export type AuditFilter = {
  /**
   * Actions starting with this ("rules." for every rules change), or one exactly; several
   * (a group: ["rules.", "ruleSettings."]) match an event matching any of them.
   */
  action?: string | readonly string[];
  /** The member's email or the key, as shown ("API key ci (1a2b3c4d)"). */
  actor?: string;
  since?: Date;
  until?: Date;
  /** The last row of the page before: (at, id), newest first. */
  cursor?: { at: Date; id: string };
  limit: number;
};

/** Prisma's `contains` and `startsWith` are SQL LIKE: `%` and `_` must mean themselves. */
function actionIs(action: string): Prisma.AuditEventWhereInput {
  return {
    action: action.endsWith(".") ? { startsWith: escapeLike(action) } : { equals: action },
  };
}

/**
 * What the log says about a target, read in the account it belongs to (a member: one of its
 * members, as they are until the call removes them), or null when nothing there has that id.
 */
async function factsOf(
  prisma: PrismaClient,
  accountId: string,
  kind: TargetKind,
  id: string,
): Promise<TargetFacts | null> {
  switch (kind) {
    case "member": {
      const found = await prisma.membership.findFirst({
        where: { accountId, userId: id },
        select: { user: { select: { email: true } } },
      });
      return found && { kind, email: found.user.email };
    }
    case "invite": {
      const found = await prisma.invite.findFirst({ where: { accountId, id } });
      return found && { kind, email: found.email };
    }
    case "apiKey": {
      const found = await prisma.apiKey.findFirst({ where: { accountId, id } });
      return found && { kind, name: found.name };
    }
    case "webhookEndpoint": {
      const found = await prisma.webhookEndpoint.findFirst({ where: { accountId, id } });
      return found && { kind, url: found.url };
    }
    case "webhookDelivery": {
      const found = await prisma.webhookDelivery.findFirst({
        where: { accountId, id },
        select: { eventType: true, endpoint: { select: { url: true } } },
      });
      return found && { kind, eventType: found.eventType, url: found.endpoint.url };
    }
    case "screening": {
      const found = await prisma.screening.findFirst({
        where: { accountId, id },
        select: { type: true, decision: true, score: true },
      });
      return found && { kind, ...found };
    }
    case "charge": {
      const found = await prisma.transaction.findFirst({
        where: { accountId, chargeId: id },
        select: { amount: true, currency: true },
      });
      return found && { kind, ...found };
    }
    case "allowEntry": {
      const found = await prisma.allowEntry.findFirst({ where: { accountId, id } });
      return found && { kind, allowKind: found.kind };
    }
    case "scoreModel": {
      const found = await prisma.scoreModel.findFirst({ where: { accountId, id } });
      return found && { kind, version: found.version };
    }
    case "labelBatch": {
      // Read before the undo takes the batch's labels away.
      const labels = await prisma.label.findMany({
        where: { accountId, batchId: id },
        select: { subjectKind: true, label: true },
        take: 1,
      });
      const count = await prisma.label.count({ where: { accountId, batchId: id } });
      const first = labels[0];
      return first ? { kind, count, subjectKind: first.subjectKind, label: first.label } : null;
    }
    case "account": {
      // The account entered: the caller is a member of it once the switch has succeeded.
      if (id !== accountId) return null;
      const found = await prisma.account.findUnique({ where: { id }, select: ACCOUNT_NAME });
      return found && { kind, name: accountName(found) };
    }
  }
}

const json = (value: unknown) =>
  value === undefined || value === null ? undefined : (value as Prisma.InputJsonValue);

export function createAuditRepository(prisma: PrismaClient) {
  return {
    append(row: AuditRow) {
      return prisma.auditEvent.create({
        data: { ...row, before: json(row.before), after: json(row.after) },
      });
    },

    /** What the log says about the target of `kind` with this id in the account, or null. */
    facts(accountId: string, kind: TargetKind, id: string) {
      return factsOf(prisma, accountId, kind, id);
    },

    /** Newest first, then by id, after the cursor; one more than asked says "there is more". */
    list(accountId: string, filter: AuditFilter) {
      const { cursor } = filter;
      const actions = [filter.action ?? []].flat();
      return prisma.auditEvent.findMany({
        where: {
          accountId,
          ...(filter.actor && {
            actor: { contains: escapeLike(filter.actor), mode: "insensitive" },
          }),
          ...((filter.since || filter.until) && {
            at: {
              ...(filter.since && { gte: filter.since }),
              ...(filter.until && { lt: filter.until }),
            },
          }),
          AND: [
            ...(actions.length > 0 ? [{ OR: actions.map(actionIs) }] : []),
            ...(cursor
              ? [{ OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] }]
              : []),
          ],
        },
        orderBy: [{ at: "desc" }, { id: "desc" }],
        take: filter.limit + 1,
      });
    },

    /**
     * Deletes events past each account's retention, at most `batch` at a time. Measured by the
     * database's clock, as the trigger that refuses to delete an event still inside its
     * retention measures it. The number deleted.
     */
    async prune(batch: number): Promise<number> {
      return prisma.$executeRaw`
        DELETE FROM "AuditEvent" WHERE "id" IN (
          SELECT e."id" FROM "AuditEvent" e JOIN "Account" a ON a."id" = e."accountId"
          WHERE e."at" < (now() AT TIME ZONE 'UTC') - make_interval(days => a."auditRetentionDays")
          LIMIT ${batch}
        )`;
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
