/**
 * GET /api/v1/screenings: the account's screenings for scripts, newest first, filtered by
 * decision, type, time, email and label (labels.repository.ts: the newest label of a subject is
 * its current one), paged with the console list's keyset cursor. Only reads.
 */
import type {
  ScreeningsApiPage,
  ScreeningsApiQuery,
} from "../../../shared/schemas/screenings-api.ts";
import { Prisma, type PrismaClient } from "../../db/generated/client.ts";
import { decodeCursor, encodeCursor, screeningRowOf } from "./screening-history.service.ts";

/** The screening's current label (null: none), as SQL. */
const CURRENT_LABEL = Prisma.sql`(SELECT l."label"::text FROM "Label" l
  WHERE l."accountId" = s."accountId" AND l."subjectKind" = 'screening' AND l."subjectId" = s."id"
  ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1)`;

function conditions(accountId: string, q: ScreeningsApiQuery): Prisma.Sql[] {
  const where = [Prisma.sql`s."accountId" = ${accountId}`];
  if (q.decision) where.push(Prisma.sql`s."decision" = ${q.decision}`);
  if (q.type) where.push(Prisma.sql`s."type" = ${q.type}`);
  if (q.from) where.push(Prisma.sql`s."createdAt" >= ${q.from}`);
  if (q.to) where.push(Prisma.sql`s."createdAt" < ${q.to}`);
  if (q.email) where.push(Prisma.sql`lower(s."email") = ${q.email.toLowerCase()}`);
  if (q.label) where.push(Prisma.sql`${CURRENT_LABEL} = ${q.label}`);
  else if (q.labelled !== undefined) {
    where.push(Prisma.sql`${q.labelled ? Prisma.empty : Prisma.sql`NOT`} EXISTS (
      SELECT 1 FROM "Label" l WHERE l."accountId" = s."accountId"
        AND l."subjectKind" = 'screening' AND l."subjectId" = s."id")`);
  }
  if (q.cursor) {
    const after = decodeCursor(q.cursor);
    where.push(Prisma.sql`(s."createdAt", s."id") < (${after.createdAt}, ${after.id})`);
  }
  return where;
}

export function createScreeningsApi(prisma: PrismaClient) {
  return {
    /** A page; `q` as ZScreeningsApiQuery read the query string (the route parsed it). */
    async list(accountId: string, q: ScreeningsApiQuery): Promise<ScreeningsApiPage> {
      const keys = await prisma.$queryRaw<{ id: string; createdAt: Date; label: string | null }[]>`
        SELECT s."id", s."createdAt", ${CURRENT_LABEL} AS "label"
        FROM "Screening" s
        WHERE ${Prisma.join(conditions(accountId, q), " AND ")}
        ORDER BY s."createdAt" DESC, s."id" DESC
        LIMIT ${q.limit + 1}`;
      const page = keys.slice(0, q.limit);
      const rows = await prisma.screening.findMany({
        where: { accountId, id: { in: page.map((key) => key.id) } },
      });
      const byId = new Map(rows.map((row) => [row.id, row]));
      const last = page.at(-1);
      return {
        items: page.flatMap((key) => {
          const row = byId.get(key.id);
          return row
            ? [
                {
                  ...screeningRowOf(row),
                  label: key.label === null ? null : (key.label as "fraud" | "legitimate"),
                },
              ]
            : [];
        }),
        next_cursor:
          keys.length > q.limit && last
            ? encodeCursor({ createdAt: new Date(last.createdAt), id: last.id })
            : null,
      };
    },
  };
}

export type ScreeningsApi = ReturnType<typeof createScreeningsApi>;
