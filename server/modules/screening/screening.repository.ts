/**
 * The only code that touches the database for screenings. Screenings are judged in batches
 * (screening-batches.ts): every number a batch's rules need comes back from one statement
 * (countBatch), and the batch's screenings and their counting rows are stored by one more
 * (storeBatch). Both are plain SQL, prepared, with the batch as JSON (screening.sql.ts, its
 * rows built in batch-rows.ts); the console's reads go through Prisma.
 */

import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import { escapeLike } from "../../db/like.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import {
  type Counted,
  type CountRequest,
  countedOf,
  countInput,
  eventItems,
  insertItem,
  type ScreeningEventRow,
  type StoredScreening,
} from "./batch-rows.ts";
import {
  COUNT,
  type CountRow,
  INSERT,
  INSERT_WITH_EVENTS,
  KEYED_COUNT,
  KEYED_STORE_AND_COUNT,
  KEYED_STORE_AND_COUNT_WITH_EVENTS,
  LEGACY_ROWS,
  STORE_AND_COUNT,
  STORE_AND_COUNT_WITH_EVENTS,
} from "./screening.sql.ts";

/** The batch rows' types, as the services that store and count screenings name them. */
export type {
  Counted,
  CountRequest,
  HistoryQuery,
  ScreeningEventRow,
  StoredScreening,
} from "./batch-rows.ts";

/**
 * What the Screenings page's search matches: one whole address exactly, or a text as part of
 * an email (any case; its start only when shorter than a trigram), the start of a user id or
 * the start of an IP. The email by a trigram index (Screening_email_trgm); the user id and the
 * IP by the account's prefix indexes (Screening_*_prefix), where an address is stored in its
 * one lowercase form (decision 021), so its start is matched lowercased, not by ILIKE, which
 * no btree answers.
 */
export type ScreeningSearch = { ip: string } | { text: string };

function searchWhere(search: ScreeningSearch): Prisma.ScreeningWhereInput {
  if ("ip" in search) return { ip: search.ip };
  const text = escapeLike(search.text);
  const email = search.text.length >= 3 ? { contains: text } : { startsWith: text };
  return {
    OR: [
      { email: { ...email, mode: "insensitive" } },
      { userId: { startsWith: text } },
      { ip: { startsWith: text.toLowerCase() } },
    ],
  };
}

/** How long an account known to hold legacy rows goes before it is asked again. */
const LEGACY_RECHECK_MS = 3_600_000;

export function createScreeningRepository(prisma: PrismaClient, sql: SqlRunner) {
  let counted = 0;
  /**
   * Accounts whose counting rows are all keyed (decision 013): no legacy row can be stored any
   * more, so once an account has none it never has one again, and its probes skip the legacy
   * lookup (half of COUNT's index scans). Asked in the background, once per account, and
   * hourly while it still has some (a partial index answers at once); until then, both.
   * Value: true when keyed only, else when it was last asked.
   */
  const keyed = new Map<string, true | number>();
  const keyedOnly = (accountId: string): boolean => {
    const known = keyed.get(accountId);
    if (known === true) return true;
    const now = Date.now();
    if (known === undefined || now - known > LEGACY_RECHECK_MS) {
      keyed.set(accountId, now);
      sql.prepared<{ legacy: boolean }>("screen-legacy", LEGACY_ROWS, [accountId]).then(
        (rows) => {
          if (rows[0]?.legacy === false) keyed.set(accountId, true);
        },
        () => keyed.delete(accountId),
      );
    }
    return false;
  };
  /**
   * COUNT is prepared, but the plan PostgreSQL keeps is made from the table as it was (see
   * stripe-events.repository.ts): it is prepared afresh, under a new name, after 10, 100, ...
   * 1,000,000 screenings counted, so a plan made on a new install's empty table does not stay.
   */
  const countName = (size: number) => {
    counted += size;
    return `screen-count-${Math.min(6, Math.floor(Math.log10(counted)))}`;
  };
  const repo = {
    /** Every probe's answer and Stripe history, for a batch of screenings, in one statement. */
    async countBatch(requests: readonly CountRequest[]): Promise<Counted[]> {
      const { probes, history, keyed } = countInput(requests, keyedOnly);
      if (probes.length === 0 && history.length === 0) return countedOf(requests, []);
      const name = countName(requests.length);
      const rows = await sql.prepared<CountRow>(
        keyed ? `keyed-${name}` : name,
        keyed ? KEYED_COUNT : COUNT,
        [JSON.stringify(probes), JSON.stringify(history)],
      );
      return countedOf(requests, rows);
    },

    /**
     * Stores one batch of judged screenings (under `ids`) and counts the next, in one
     * statement: one round trip and one commit. The count does not see the rows stored beside
     * it (the caller counts them from memory). The batch's decision events (`events`) are
     * stored by the same statement, so with their screenings or not at all.
     */
    async storeAndCount(
      screenings: readonly StoredScreening[],
      ids: readonly string[],
      requests: readonly CountRequest[],
      events: readonly ScreeningEventRow[] = [],
    ): Promise<Counted[]> {
      if (screenings.length === 0) return repo.countBatch(requests);
      if (requests.length === 0) {
        await repo.storeBatch(screenings, ids, events);
        return [];
      }
      const { probes, history, keyed } = countInput(requests, keyedOnly);
      const items = screenings.map((s, i) => insertItem(ids[i] as string, s));
      const cycle = countName(requests.length).replace("count", "cycle");
      const name = keyed ? `keyed-${cycle}` : cycle;
      const params = [JSON.stringify(probes), JSON.stringify(history), JSON.stringify(items)];
      const rows =
        events.length === 0
          ? await sql.prepared<CountRow>(
              name,
              keyed ? KEYED_STORE_AND_COUNT : STORE_AND_COUNT,
              params,
            )
          : await sql.prepared<CountRow>(
              `${name}-events`,
              keyed ? KEYED_STORE_AND_COUNT_WITH_EVENTS : STORE_AND_COUNT_WITH_EVENTS,
              [...params, JSON.stringify(eventItems(events))],
            );
      return countedOf(requests, rows);
    },

    /**
     * Stores a batch of screenings and their counting rows in one statement (so one commit);
     * under the `ids` given, else new ones; with their decision events, if any. Their ids.
     */
    async storeBatch(
      screenings: readonly StoredScreening[],
      given?: readonly string[],
      events: readonly ScreeningEventRow[] = [],
    ): Promise<string[]> {
      const ids = given ? [...given] : screenings.map(() => randomUUID());
      const items = JSON.stringify(screenings.map((s, i) => insertItem(ids[i] as string, s)));
      if (events.length === 0) await sql.prepared("screen-insert", INSERT, [items]);
      else {
        await sql.prepared("screen-insert-events", INSERT_WITH_EVENTS, [
          items,
          JSON.stringify(eventItems(events)),
        ]);
      }
      return ids;
    },

    /** Stores one screening (tests, and anything outside the batch path). */
    async store(screening: StoredScreening): Promise<string> {
      const [id] = await repo.storeBatch([screening]);
      return id as string;
    },

    /** One page of the account's screenings, newest first, after the cursor's (time, id). */
    list(
      accountId: string,
      query: {
        limit: number;
        decision?: string;
        type?: string;
        rule?: string;
        search?: ScreeningSearch;
        after?: { createdAt: Date; id: string };
      },
    ) {
      const and: Prisma.ScreeningWhereInput[] = [];
      if (query.search) and.push(searchWhere(query.search));
      if (query.after) {
        const { createdAt, id } = query.after;
        and.push({ OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] });
      }
      const where: Prisma.ScreeningWhereInput = {
        accountId,
        ...(query.decision ? { decision: query.decision } : {}),
        ...(query.type ? { type: query.type } : {}),
        ...(query.rule ? { rules: { has: query.rule } } : {}),
        AND: and,
      };
      return prisma.screening.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: query.limit + 1,
      });
    },

    /** Decisions since `since`, per decision. */
    async countsSince(accountId: string, since: Date): Promise<Record<string, number>> {
      const rows = await prisma.screening.groupBy({
        by: ["decision"],
        where: { accountId, createdAt: { gte: since } },
        _count: { _all: true },
      });
      return Object.fromEntries(rows.map((row) => [row.decision, row._count._all]));
    },

    /** Decisions from `from` until `to`, per minute (minutes since the epoch, UTC) and decision. */
    async decisionsPerMinute(
      accountId: string,
      from: Date,
      to: Date,
    ): Promise<{ minute: number; decision: string; n: number }[]> {
      return prisma.$queryRaw`
        SELECT floor(extract(epoch FROM "createdAt") / 60)::int AS "minute", "decision",
               count(*)::int AS "n"
        FROM "Screening"
        WHERE "accountId" = ${accountId}
          AND "createdAt" >= ${from.toISOString()}::timestamp
          AND "createdAt" < ${to.toISOString()}::timestamp
        GROUP BY 1, 2`;
    },

    /**
     * Deletes at most `batch` screenings older than their account's retention before `now`
     * (Account.screeningRetentionDays; `defaultDays` where it has none), through each
     * account's (accountId, createdAt) index. Returns how many.
     */
    purgeScreenings(now: Date, defaultDays: number, batch: number): Promise<number> {
      return prisma.$executeRaw`
        DELETE FROM "Screening" WHERE "id" IN (
          SELECT s."id" FROM "Account" a
          CROSS JOIN LATERAL (
            SELECT x."id" FROM "Screening" x
            WHERE x."accountId" = a."id"
              AND x."createdAt" < ${now.toISOString()}::timestamp
                - make_interval(days => COALESCE(a."screeningRetentionDays", ${defaultDays}::int))
            LIMIT ${batch}
          ) AS s
          LIMIT ${batch}
        )`;
    },

    /**
     * Deletes at most `batch` counting rows older than their account's retention before `now`
     * (Account.identityRetentionDays; `defaultDays` where it has none, or the account is
     * gone), and request events' rows before `requests`. Returns how many.
     */
    purgeIdentities(
      now: Date,
      defaultDays: number,
      requests: Date,
      batch: number,
    ): Promise<number> {
      // Every retention is at least a day, and so at least `requests` ago: the (at) index.
      return prisma.$executeRaw`
        DELETE FROM "ScreeningIdentity" WHERE "id" IN (
          SELECT i."id" FROM "ScreeningIdentity" i
          LEFT JOIN "Account" a ON a."id" = i."accountId"
          WHERE i."at" < ${requests.toISOString()}::timestamp
            AND (i."type" = 'request'
              OR i."at" < ${now.toISOString()}::timestamp
                - make_interval(days => COALESCE(a."identityRetentionDays", ${defaultDays}::int)))
          LIMIT ${batch}
        )`;
    },
  };
  return repo;
}

export type ScreeningRepository = ReturnType<typeof createScreeningRepository>;
