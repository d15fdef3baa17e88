/**
 * The only code that reads the database for linked accounts (decision 023): the counting rows
 * of a screening's link identities over the window, and the linked screenings themselves.
 * Read on a screening's detail, never on the screening path.
 */

import type { LinkKind } from "../../../shared/schemas/screening.ts";
import type { PrismaClient } from "../../db/generated/client.ts";
import type { LinkProbe } from "./links.types.ts";

/** One counting row of a shared identity: which account, when, and whether it was blocked. */
export type LinkRow = {
  kind: LinkKind;
  screeningId: string;
  at: Date;
  /** The row's account in keyed form (an unkeyed row's is turned keyed in SQL). */
  subject: string;
  blocked: boolean;
};

/** A linked screening as its account's line shows it. */
export type LinkedScreening = {
  id: string;
  userId: string | null;
  email: string | null;
  reviewStatus: string | null;
  /** Its newest label, if any. */
  label: string | null;
};

export type RowsQuery = {
  probes: readonly LinkProbe[];
  /** Only rows in [since, until], and none of this screening's own. */
  since: Date;
  until: Date;
  except: string;
  key: string;
  /** Newest rows read per probe: a busy identity costs one bounded index scan backwards. */
  perProbe: number;
};

export function createLinksRepository(prisma: PrismaClient) {
  return {
    /**
     * Each probe's newest rows in the window that name an account, as the screening path's
     * "subjects" probes read them (screening.sql.ts COUNT), one index range scan each.
     */
    rows(accountId: string, q: RowsQuery): Promise<LinkRow[]> {
      if (q.probes.length === 0) return Promise.resolve([]);
      return prisma.$queryRaw<LinkRow[]>`
        SELECT p."kind", r."screeningId", r."at", r."blocked",
          CASE WHEN r."keyed" THEN r."subject"
            ELSE left(encode(sha256(convert_to(${q.key} || ':' || r."subject", 'UTF8')), 'hex'), 32)
          END AS "subject"
        FROM unnest(${q.probes.map((p) => p.kind)}::text[], ${q.probes.map((p) => p.value)}::text[])
          AS p("kind", "value")
        CROSS JOIN LATERAL (
          SELECT si."screeningId", si."at", si."blocked", si."keyed", si."subject"
          FROM "ScreeningIdentity" si
          WHERE si."accountId" = ${accountId} AND si."kind" = p."kind" AND si."value" = p."value"
            AND si."at" >= ${q.since} AND si."at" <= ${q.until} AND si."screeningId" <> ${q.except}
          ORDER BY si."at" DESC
          LIMIT ${q.perProbe}
        ) AS r
        WHERE r."subject" IS NOT NULL`;
    },

    /** The screenings by id, with their review state and newest label (purged ones are absent). */
    screenings(accountId: string, ids: readonly string[]): Promise<LinkedScreening[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return prisma.$queryRaw<LinkedScreening[]>`
        SELECT s."id", s."userId", s."email", s."reviewStatus",
          (SELECT l."label" FROM "Label" l
           WHERE l."accountId" = ${accountId} AND l."subjectKind" = 'screening'
             AND l."subjectId" = s."id"
           ORDER BY l."createdAt" DESC, l."id" DESC LIMIT 1) AS "label"
        FROM "Screening" s
        WHERE s."accountId" = ${accountId} AND s."id" = ANY (${[...ids]}::text[])`;
    },
  };
}

export type LinksRepository = ReturnType<typeof createLinksRepository>;
