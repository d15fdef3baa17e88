/**
 * What a backtest reads, in keyset-paginated batches so a million rows never sit in memory
 * at once: the account's counting rows from before the window (seeds), its screenings and
 * charges in the window in time order, and its refunded or disputed charges. Plain SQL on
 * both databases; times travel as epoch milliseconds (no timezone parsing on either side).
 */
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { ScreenEvent } from "../../../shared/schemas/screening.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import type { AllowListEntry } from "../../engine/types.ts";
import type { IdentityKind } from "../screening/screening.entry.ts";
import type { StoredChargeRow, StoredScreeningRow } from "./backtest-replay.ts";
import type { CounterRow } from "./replay-counters.ts";
import type { HistoryCharge } from "./stripe-history.ts";

export type Window = { from: Date; to: Date };
/** `keyed` false: a row stored before keyed digests (decision 013). */
export type SeedRow = { kind: IdentityKind; value: string; keyed: boolean; row: CounterRow };

/** A UTC timestamp literal from epoch milliseconds, exact (integer interval arithmetic). */
const ts = (ms: number) => `(timestamp 'epoch' + ${Math.round(ms)} * interval '1 millisecond')`;
const MS = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
const iso = (date: Date) => date.toISOString();

export function createBacktestRepository(sql: SqlRunner, batchSize = 2_000) {
  return {
    /**
     * How many screenings and succeeded charges the window holds (the progress bar's total),
     * and its other charges (failed, pending): the dashboard counts them, the rules never act
     * on them, so they are counted but not judged.
     */
    async totals(accountId: string, window: Window) {
      const [row] = await sql.query<{ screenings: number; charges: number; notJudged: number }>(
        `SELECT
           (SELECT count(*) FROM "Screening" WHERE "accountId" = $1
              AND "createdAt" >= $2::timestamp AND "createdAt" < $3::timestamp)::int AS screenings,
           (SELECT count(*) FROM "Transaction" WHERE "accountId" = $1 AND "hasCharge"
              AND "status" = 'succeeded' AND "created" >= $4 AND "created" < $5)::int AS charges,
           (SELECT count(*) FROM "Transaction" WHERE "accountId" = $1 AND "hasCharge"
              AND "status" <> 'succeeded' AND "created" >= $4 AND "created" < $5)::int
              AS "notJudged"`,
        [
          accountId,
          iso(window.from),
          iso(window.to),
          Math.floor(window.from.getTime() / 1000),
          Math.floor(window.to.getTime() / 1000),
        ],
      );
      return {
        screenings: Number(row?.screenings ?? 0),
        charges: Number(row?.charges ?? 0),
        notJudged: Number(row?.notJudged ?? 0),
      };
    },

    /**
     * When the account's settings that a backtest runs (rules, templates, rule settings,
     * block list) were last saved; null when none ever was (the defaults).
     */
    async settingsSavedAt(accountId: string): Promise<Date | null> {
      const [row] = await sql.query<{ at: number | null }>(
        `SELECT ${MS(`GREATEST(
           (SELECT "updatedAt" FROM "RuleSettings" WHERE "accountId" = $1),
           (SELECT "updatedAt" FROM "TemplateSettings" WHERE "accountId" = $1),
           (SELECT "updatedAt" FROM "RuleParameterSettings" WHERE "accountId" = $1),
           (SELECT "updatedAt" FROM "Blocklist" WHERE "accountId" = $1))`)} AS at`,
        [accountId],
      );
      return row?.at == null ? null : new Date(Number(row.at));
    },

    /** Counting rows before the window that a probe can still reach: kind → look-back (ms). */
    async *seeds(
      accountId: string,
      before: Date,
      lookback: Partial<Record<IdentityKind, number>>,
    ): AsyncGenerator<SeedRow[]> {
      const kinds = Object.entries(lookback).filter(([, ms]) => (ms ?? 0) > 0);
      if (kinds.length === 0) return;
      const end = before.getTime();
      const longest = Math.max(...kinds.map(([, ms]) => ms as number));
      const scope = kinds
        .map(([kind, ms]) => `("kind" = '${kind}' AND "at" >= ${ts(end - (ms as number))})`)
        .join(" OR ");
      // Keyset on (at, id) over the index on "at": only the seed period is read, whatever
      // the window itself holds. ORDER BY names the table's columns: a bare "at" would be the
      // output column (epoch ms), which no index has, so every batch sorted the whole period.
      let after = { at: end - longest - 1, id: "0" };
      for (;;) {
        const rows = await sql.query<{
          id: string;
          kind: IdentityKind;
          value: string;
          type: string;
          at: number;
          subject: string | null;
          userId: string | null;
          card: string | null;
          promo: string | null;
          blocked: boolean;
          keyed: boolean;
        }>(
          `SELECT "id"::text AS id, "kind", "value", "type", ${MS('"at"')} AS at, "subject",
                  "userId", "card", "promo", "blocked", "keyed"
           FROM "ScreeningIdentity"
           WHERE "at" >= ${ts(end - longest)} AND "at" < ${ts(end)}
             AND ("at", "id") > (${ts(after.at)}, $2::bigint)
             AND "accountId" = $1 AND (${scope})
           ORDER BY "ScreeningIdentity"."at", "ScreeningIdentity"."id" LIMIT ${batchSize}`,
          [accountId, after.id],
        );
        if (rows.length === 0) return;
        const tail = rows[rows.length - 1] as { id: string; at: number };
        after = { at: Number(tail.at), id: tail.id };
        yield rows.map((r) => ({
          kind: r.kind,
          value: r.value,
          keyed: r.keyed,
          row: {
            at: Number(r.at),
            type: r.type,
            blocked: r.blocked,
            subject: r.subject,
            user: r.userId,
            card: r.card,
            promo: r.promo,
          },
        }));
        if (rows.length < batchSize) return;
      }
    },

    /** The window's screenings, oldest first. */
    async *screenings(accountId: string, window: Window): AsyncGenerator<StoredScreeningRow[]> {
      // Keyset on ("createdAt", "id"), the time as epoch ms (the column is timestamp(3), so
      // exact). ("createdAt", "id") > (from, ''): every id is longer than '', so this is
      // createdAt >= from. ORDER BY names the table's columns: a bare name would be an output
      // column, which no index has (every batch then sorted the whole window).
      let after = { at: window.from.getTime(), id: "" };
      for (;;) {
        const rows = await sql.query<{
          id: string;
          at: number;
          input: ScreenEvent;
          signals: CollectedSignals | string | null;
          decision: string;
        }>(
          `SELECT "id", ${MS('"createdAt"')} AS at, "input", "signals", "decision"
           FROM "Screening"
           WHERE "accountId" = $1 AND "createdAt" < $3::timestamp
             AND ("createdAt", "id") > (${ts(after.at)}, $2)
           ORDER BY "Screening"."createdAt", "Screening"."id" LIMIT ${batchSize}`,
          [accountId, after.id, iso(window.to)],
        );
        if (rows.length === 0) return;
        const tail = rows[rows.length - 1] as { id: string; at: number };
        after = { at: Number(tail.at), id: tail.id };
        yield rows.map((r) => ({
          id: r.id,
          createdAt: new Date(Number(r.at)),
          input: typeof r.input === "string" ? JSON.parse(r.input) : r.input,
          collected: typeof r.signals === "string" ? JSON.parse(r.signals) : r.signals,
          decision: r.decision,
        }));
        if (rows.length < batchSize) return;
      }
    },

    /** The window's succeeded charges, oldest first. */
    async *charges(accountId: string, window: Window): AsyncGenerator<StoredChargeRow[]> {
      let after = { created: Math.floor(window.from.getTime() / 1000), id: "" };
      const to = Math.floor(window.to.getTime() / 1000);
      for (;;) {
        const rows = await sql.query<StoredChargeRow>(
          `SELECT "chargeId", "created", "email", "amount", "currency", "riskScore", "cardCountry",
                  "billingCountry", "cardFingerprint", "efwId", "efwActionable", "efwFraudType",
                  "blockedBy"::text AS "blockedBy", "refunded", "amountRefunded", "disputed"
           FROM "Transaction"
           WHERE "accountId" = $1 AND "hasCharge" AND "status" = 'succeeded' AND "created" < $4
             AND ("created", "chargeId") > ($2, $3)
           ORDER BY "created", "chargeId" LIMIT ${batchSize}`,
          [accountId, after.created, after.id, to],
        );
        if (rows.length === 0) return;
        const tail = rows[rows.length - 1] as StoredChargeRow;
        after = { created: tail.created, id: tail.chargeId };
        yield rows;
        if (rows.length < batchSize) return;
      }
    },

    /**
     * The account's allow-list entries as they are now, expired ones too (the replay applies
     * each while it was in force: allow-list-timeline.ts). Removed entries are gone.
     */
    async allowEntries(accountId: string): Promise<AllowListEntry[]> {
      const rows = await sql.query<{
        kind: AllowListEntry["kind"];
        value: string;
        addedBy: string;
        createdAt: number;
        expiresAt: number | null;
      }>(
        `SELECT "kind"::text AS kind, "value", "addedBy", ${MS('"createdAt"')} AS "createdAt",
                ${MS('"expiresAt"')} AS "expiresAt"
         FROM "AllowEntry" WHERE "accountId" = $1 LIMIT 10000`,
        [accountId],
      );
      return rows.map((r) => ({
        kind: r.kind,
        value: r.value,
        addedBy: r.addedBy,
        addedAt: new Date(Number(r.createdAt)).toISOString(),
        expiresAt: r.expiresAt === null ? null : new Date(Number(r.expiresAt)).toISOString(),
      }));
    },

    /** Refunded or disputed charges created since `since` (Unix seconds), for refund history. */
    async refundHistory(accountId: string, since: number): Promise<HistoryCharge[]> {
      const rows = await sql.query<{
        chargeId: string;
        created: number;
        email: string | null;
        cardFingerprint: string | null;
        refunded: boolean;
        disputed: boolean;
      }>(
        `SELECT "chargeId", "created", "email", "cardFingerprint",
                ("refunded" OR "amountRefunded" > 0) AS refunded, "disputed"
         FROM "Transaction"
         WHERE "accountId" = $1 AND "created" >= $2
           AND ("refunded" OR "amountRefunded" > 0 OR "disputed")`,
        [accountId, since],
      );
      return rows.map((r) => ({
        chargeId: r.chargeId,
        created: Number(r.created),
        email: r.email,
        card: r.cardFingerprint,
        refunded: r.refunded,
        disputed: r.disputed,
      }));
    },
  };
}

export type BacktestRepository = ReturnType<typeof createBacktestRepository>;
