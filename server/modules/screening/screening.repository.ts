/**
 * The only code that touches the database for screenings. Before a screening is judged,
 * every number its rules need comes back from one query (countIdentities); after, the
 * screening and its identities are stored by one statement (store). Those two run on plain
 * SQL (the hot path: Prisma's query engine cost more CPU than the queries); the console's
 * reads go through Prisma.
 */

import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../../db/generated/client.ts";
import { escapeLike } from "../../db/like.ts";
import type { SqlQuery, SqlRunner } from "../../db/sql-runner.ts";
import type { StripeHistory } from "../../engine/types.ts";
import type { Identities } from "./identities.ts";
import type { Probe } from "./probes.ts";

export type StoredScreening = {
  accountId: string;
  createdAt: Date;
  type: string;
  userId: string | null;
  email: string | null;
  ip: string | null;
  country: string | null;
  decision: string;
  score: number;
  rules: string[];
  reasons: unknown;
  monitored: unknown;
  input: unknown;
  /** The browser collector's address and signals, when the screening consumed a token. */
  collectIp?: string | null;
  signals?: unknown;
  /** Features that could not be computed, and why (empty: none). */
  unavailable?: readonly unknown[];
  blocked: boolean;
  identities: Identities;
};

export type HistoryQuery = { email: string | null; card: string | null; since: number };

/**
 * SQL and parameters that answer each probe as one column, p0, p1, ... Rows stored before
 * keyed digests (`"keyed"` false) are found by the probe's legacy digest beside its keyed one
 * (an IN keeps the index), and where a count compares digests across rows (distinct users or
 * cards, the event's own left out) a legacy one is turned into its keyed form first, with the
 * account's key (identities.ts), so one person is never counted twice.
 */
export function probeQuery(
  accountId: string,
  probes: readonly Probe[],
  history: HistoryQuery | null,
  key: string,
) {
  const params: unknown[] = [accountId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  let keyParam: string | null = null;
  const keyed = (column: string) => {
    keyParam ??= p(key);
    return `CASE WHEN "keyed" THEN ${column} ELSE left(encode(sha256(convert_to(${keyParam} || ':' || ${column}, 'UTF8')), 'hex'), 32) END`;
  };
  const either = (column: string, value: string, legacy: string | undefined) =>
    legacy ? `${column} IN (${p(value)}, ${p(legacy)})` : `${column} = ${p(value)}`;
  const conditions: string[] = [];
  const columns = probes.map((probe, i) => {
    const parts = [
      `"kind" = ${p(probe.kind)}`,
      either('"value"', probe.value, probe.legacy),
      `"at" >= ${p(probe.since)}`,
    ];
    if (probe.types) parts.push(`"type" = ANY(${p(probe.types)}::text[])`);
    if (probe.notBlocked) parts.push(`NOT "blocked"`);
    if (probe.promo) parts.push(either('"promo"', probe.promo, probe.legacyPromo));
    if (probe.user) parts.push(either('"userId"', probe.user, probe.legacyUser));
    const where = parts.join(" AND ");
    conditions.push(`(${where})`);
    // Only where digests are compared across rows: an unused key parameter has no type.
    const compared = () =>
      probe.measure === "distinctCard" ? keyed('"card"') : keyed('"subject"');
    const except = probe.except ? ` AND ${compared()} <> ${p(probe.except)}` : "";
    const aggregate = probe.measure === "count" ? "count(*)" : `count(DISTINCT ${compared()})`;
    return `${aggregate} FILTER (WHERE ${where}${except})::int AS p${i}`;
  });
  if (history) {
    const match: string[] = [];
    if (history.email) match.push(`"email" = ${p(history.email)}`);
    if (history.card) match.push(`"cardFingerprint" = ${p(history.card)}`);
    const scope = `FROM "Transaction" WHERE "accountId" = $1 AND (${match.join(" OR ") || "false"}) AND "created" >= ${p(history.since)}`;
    columns.push(
      `(SELECT count(*) ${scope} AND ("refunded" OR "amountRefunded" > 0))::int AS refunds`,
    );
    columns.push(`(SELECT count(*) ${scope} AND "disputed")::int AS disputes`);
  }
  if (columns.length === 0) return null;
  const from =
    conditions.length > 0
      ? ` FROM "ScreeningIdentity" WHERE "accountId" = $1 AND (${conditions.join(" OR ")})`
      : "";
  return { sql: `SELECT ${columns.join(", ")}${from}`, params };
}

export function createScreeningRepository(prisma: PrismaClient, sql: SqlRunner) {
  return {
    /**
     * Runs `work` in one transaction holding an advisory lock per key (the event's hashed
     * identities), so two events about the same identity are counted and stored one after
     * the other: two trial starts from one device at once cannot both pass.
     */
    withLocks<T>(keys: readonly string[], work: (query: SqlQuery) => Promise<T>): Promise<T> {
      return sql.transaction(async (query) => {
        // A screening is not money: its commit need not wait for the disk (a crash loses at
        // most the last few screenings' counts, never a Stripe effect).
        await query("SET LOCAL synchronous_commit TO OFF");
        if (keys.length > 0) {
          await query(
            "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS locks",
            [[...keys]],
          );
        }
        return work(query);
      });
    },

    /** Answers to the probes, in order, and the Stripe history when asked. */
    async countIdentities(
      accountId: string,
      probes: readonly Probe[],
      history: HistoryQuery | null,
      /** The account's digest key, to compare rows stored before keyed digests. */
      key: string,
      query: SqlQuery = sql.query,
    ): Promise<{ answers: number[]; history: StripeHistory | null }> {
      const built = probeQuery(accountId, probes, history, key);
      if (!built) return { answers: [], history: null };
      const [row] = await query<Record<string, number>>(built.sql, built.params);
      return {
        answers: probes.map((_, i) => Number(row?.[`p${i}`] ?? 0)),
        history: history
          ? { refunds: Number(row?.refunds ?? 0), disputes: Number(row?.disputes ?? 0) }
          : null,
      };
    },

    /** Stores the screening and one counting row per identity, in one statement. */
    async store(screening: StoredScreening, query: SqlQuery = sql.query): Promise<string> {
      const id = randomUUID();
      const s = screening;
      const ids = Object.entries(s.identities.values);
      const params: unknown[] = [
        id,
        s.accountId,
        s.createdAt,
        s.type,
        s.userId,
        s.email,
        s.ip,
        s.country,
        s.decision,
        s.score,
        s.rules,
        JSON.stringify(s.reasons),
        JSON.stringify(s.monitored),
        JSON.stringify(s.input),
        s.collectIp ?? null,
        s.signals == null ? null : JSON.stringify(s.signals),
        s.unavailable?.length ? JSON.stringify(s.unavailable) : null,
        s.identities.subject,
        s.identities.values.user ?? null,
        s.identities.values.card ?? null,
        s.identities.values.promo ?? null,
        s.blocked,
      ];
      const rows = ids.map(([kind, value]) => {
        params.push(kind, value);
        const k = params.length - 1;
        return `($2, $1, $${k}, $${k + 1}, $4, $3, $18, $19, $20, $21, $22, true)`;
      });
      const insertScreening = `INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip", "country", "decision", "score", "rules", "reasons", "monitored", "input", "collectIp", "signals", "unavailable")
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text[], $12::jsonb, $13::jsonb, $14::jsonb, $15, $16::jsonb, $17::jsonb)`;
      const text =
        rows.length === 0
          ? insertScreening
          : `WITH s AS (${insertScreening})
             INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at", "subject", "userId", "card", "promo", "blocked", "keyed")
             VALUES ${rows.join(", ")}`;
      // Without identity rows the statement uses only the screening's own parameters.
      await query(text, rows.length === 0 ? params.slice(0, 17) : params);
      return id;
    },

    /** One page of the account's screenings, newest first, after the cursor's (time, id). */
    list(
      accountId: string,
      query: {
        limit: number;
        decision?: string;
        type?: string;
        rule?: string;
        search?: { email?: string; userId?: string; ip?: string };
        after?: { createdAt: Date; id: string };
      },
    ) {
      const and: Prisma.ScreeningWhereInput[] = [];
      const search = query.search;
      if (search) {
        and.push({
          OR: [
            ...(search.email ? [{ email: { startsWith: escapeLike(search.email) } }] : []),
            ...(search.userId ? [{ userId: search.userId }] : []),
            ...(search.ip ? [{ ip: search.ip }] : []),
          ],
        });
      }
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

    /** Screenings past retention; counting rows past the longest window (requests sooner). */
    async purge(before: { screenings: Date; identities: Date; requests: Date }) {
      const screenings = await prisma.screening.deleteMany({
        where: { createdAt: { lt: before.screenings } },
      });
      const identities = await prisma.screeningIdentity.deleteMany({
        where: {
          OR: [{ at: { lt: before.identities } }, { type: "request", at: { lt: before.requests } }],
        },
      });
      return { screenings: screenings.count, identities: identities.count };
    },
  };
}

export type ScreeningRepository = ReturnType<typeof createScreeningRepository>;
