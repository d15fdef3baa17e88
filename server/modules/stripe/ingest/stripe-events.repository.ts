/**
 * The only code that touches the database for ingesting Stripe events: the inbox, the charge
 * rows and the actions they decide.
 * An event that changes a charge is one database transaction: the event row, the charge row
 * and any action are committed together or not at all. Every Stripe delivery passes here, so
 * it is plain SQL in two statements: one reads the row and the card's use, the caller decides,
 * one writes it all if the row has not changed meanwhile (optimistic, checked by the row's
 * version; decision 009). The write is prepared (sql-runner.ts): it has one plan whatever the
 * table's size, and parsing and planning it was most of PostgreSQL's work per event. An event
 * that changes nothing is one statement.
 */
import { randomUUID } from "node:crypto";
import type { Prisma } from "../../../db/generated/client.ts";
import type { SqlRunner } from "../../../db/sql-runner.ts";
import type { TransactionRow } from "../../transactions/transactions.repository.ts";

export type TransactionUpdate = Omit<
  Prisma.TransactionUncheckedUpdateInput,
  "accountId" | "chargeId" | "updatedAt"
>;

type EventRecord = {
  accountId: string;
  eventId: string;
  type: string;
  created: number;
  status: string;
  chargeId: string | null;
};

/** For rule_cc_reuse: the charge's card and email, and how far back (Unix seconds) to look. */
export type CardProbe = {
  card: string;
  email: string | null;
  since: number;
  hourAgo: number;
};

/** Other emails that paid with the card since `since`; other cards the email used in the hour. */
export type CardUsage = { otherEmails: number; otherCards: number };

export type ActionRecord = {
  kind: "refund" | "cancel";
  targetId: string;
  idempotencyKey: string;
  reason: string;
  simulated: boolean;
  nextAttemptAt: Date;
};

type ReadRow = {
  /** The row as JSON: numbers, booleans and strings as stored, "updatedAt" as text. */
  row: (Omit<TransactionRow, "updatedAt"> & { updatedAt: string }) | null;
  version: string | null;
  seen: boolean;
  otherEmails: number;
  otherCards: number;
};

export type ChargeDecision = { update: TransactionUpdate; action: ActionRecord | null };

const INSERT_EVENT = `
  INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ("accountId", "eventId") DO NOTHING`;

/**
 * A charge Warden has not seen yet, as the table's defaults would make it (checked against the
 * database in stripe-events.repository.int.test.ts). Typed against the model, so a column
 * added to Transaction must be added here: its keys are also the columns a write sets.
 */
const EMPTY_ROW: Omit<TransactionRow, "accountId" | "chargeId" | "updatedAt"> = {
  hasCharge: false,
  paymentIntentId: null,
  amount: 0,
  amountRefunded: 0,
  currency: "",
  email: null,
  created: 0,
  status: "pending",
  captured: false,
  refunded: false,
  disputed: false,
  outcomeType: null,
  outcomeReason: null,
  riskLevel: null,
  riskScore: null,
  cardCountry: null,
  billingCountry: null,
  cardFingerprint: null,
  livemode: false,
  demo: false,
  efwId: null,
  efwActionable: null,
  efwFraudType: null,
  outcome: "pending",
  blockedBy: null,
  ruleReason: null,
  actionKind: null,
  actionStatus: null,
  actionError: null,
  lastEventAt: 0,
};

const COLUMNS = Object.keys(EMPTY_ROW) as (keyof typeof EMPTY_ROW)[];

export function emptyTransactionRow(accountId: string, chargeId: string): TransactionRow {
  return { accountId, chargeId, ...EMPTY_ROW, updatedAt: new Date() };
}

/**
 * Everything a decision needs, in one read: whether the event is stored already, the charge's
 * row (as one JSON value: 5 result columns to describe and parse instead of 36) with its
 * version (xmin: the id of the transaction that wrote this row version, so any later write
 * changes it), and rule_cc_reuse's counts (zero without a probe). Each count is its own
 * subquery with both its columns in one index, so that even a plan made without statistics
 * uses that index: one count over "card OR email" was planned, on a young table, as a scan of
 * the whole account.
 */
export const READ = `
  SELECT
    EXISTS (
      SELECT 1 FROM "StripeEvent" WHERE "accountId" = $1 AND "eventId" = $2
    ) AS "seen",
    row_to_json("t") AS "row",
    "t"."xmin"::text AS "version",
    (
      SELECT count(DISTINCT "email")::int FROM "Transaction"
      WHERE "accountId" = $1 AND "cardFingerprint" = $4
        AND "chargeId" <> $3 AND "email" <> $5 AND "created" >= $6
    ) AS "otherEmails",
    (
      SELECT count(DISTINCT "cardFingerprint")::int FROM "Transaction"
      WHERE "accountId" = $1 AND "email" = $5
        AND "chargeId" <> $3 AND "cardFingerprint" <> $4 AND "created" >= $7
    ) AS "otherCards"
  FROM (SELECT 1) AS "one"
  LEFT JOIN "Transaction" AS "t" ON "t"."accountId" = $1 AND "t"."chargeId" = $3`;

const column = (name: string) => `"${name}"`;
const FIRST_ROW_PARAM = 3;
const after = COLUMNS.length + FIRST_ROW_PARAM;
const [VERSION, EVENT_ID, EVENT_TYPE, EVENT_CREATED, EVENT_STATUS] = [0, 1, 2, 3, 4].map(
  (i) => `$${after + i}`,
);
const [ACTION_ID, KIND, TARGET, KEY, REASON, SIMULATED, NEXT_ATTEMPT] = [5, 6, 7, 8, 9, 10, 11].map(
  (i) => `$${after + i}`,
);

/**
 * The decision, written as one statement (so one transaction): the charge's whole row, only if
 * it is still the version the decision was made on (no row, when there was none); then, only
 * if the row was written, the event and the action. Two deliveries racing on one charge: the
 * second finds the row changed, writes nothing, and decides again on the first's result.
 * The row goes first: a duplicate whose twin committed after the read has changed the row,
 * so it stops there, and an event is never stored without its effect.
 */
export const WRITE = `
  WITH "written" AS (
    INSERT INTO "Transaction" AS "t" ("accountId", "chargeId", ${COLUMNS.map(column).join(", ")}, "updatedAt")
    VALUES ($1, $2, ${COLUMNS.map((_, i) => `$${i + FIRST_ROW_PARAM}`).join(", ")}, now())
    ON CONFLICT ("accountId", "chargeId") DO UPDATE SET
      ${COLUMNS.map((name) => `${column(name)} = EXCLUDED.${column(name)}`).join(", ")},
      "updatedAt" = EXCLUDED."updatedAt"
    WHERE "t"."xmin" = ${VERSION}::xid
    RETURNING 1
  ), "stored" AS (
    INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
    SELECT $1, ${EVENT_ID}::text, ${EVENT_TYPE}::text, ${EVENT_CREATED}::int, ${EVENT_STATUS}::text, $2
    FROM "written"
    ON CONFLICT ("accountId", "eventId") DO NOTHING
    RETURNING 1
  ), "acted" AS (
    INSERT INTO "StripeAction" ("id", "accountId", "chargeId", "kind", "targetId",
      "idempotencyKey", "reason", "simulated", "nextAttemptAt", "updatedAt")
    SELECT ${ACTION_ID}::text, $1, $2, ${KIND}::"StripeActionKind", ${TARGET}::text, ${KEY}::text,
      ${REASON}::text, ${SIMULATED}::boolean, ${NEXT_ATTEMPT}::timestamp(3), now()
    FROM "written"
    WHERE ${KEY}::text IS NOT NULL
    ON CONFLICT ("accountId", "idempotencyKey") DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM "written")::int AS "written",
    (SELECT count(*) FROM "acted")::int AS "acted"`;

/** For the locked retry: the charge's row, created empty if new, then locked. */
const CREATE_EMPTY = `INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
  VALUES ($1, $2, now()) ON CONFLICT ("accountId", "chargeId") DO NOTHING`;
const LOCK = `SELECT 1 FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2 FOR UPDATE`;

type Run = <T>(name: string, text: string, params: unknown[]) => Promise<T[]>;

export function createStripeEventsRepository(sql: SqlRunner) {
  let reads = 0;
  /**
   * The read is prepared too (planning it on every call was a quarter of PostgreSQL's work per
   * event), but the plan PostgreSQL keeps is made from the table as it was: one made while a
   * new install's table was nearly empty looks the charge up through the smallest index and
   * scans the whole account once the table has grown (seen: 700 → 150 events/s). So the
   * statement is prepared afresh, under a new name, after 10, 100, ... 1,000,000 reads.
   */
  const readName = () => `ingest-read-${Math.min(6, Math.floor(Math.log10(++reads)))}`;

  return {
    /** Stores an event that changes no charge; false when this account already has it. */
    async recordEvent(data: EventRecord): Promise<boolean> {
      const rows = await sql.prepared("ingest-record", `${INSERT_EVENT} RETURNING 1 AS "fresh"`, [
        data.accountId,
        data.eventId,
        data.type,
        data.created,
        data.status,
        data.chargeId,
      ]);
      return rows.length === 1;
    },

    /**
     * Records the event and applies `decide` to its charge's row, in one transaction. The
     * decision is made on the row as last committed and written only if the row is still that
     * version; if not, it is made again with the row locked (`locked: true`): two deliveries
     * about one charge are decided one after the other, each on the other's result. A
     * duplicate delivery changes nothing.
     * `probe` asks for rule_cc_reuse's counts, read with the row.
     */
    async applyToCharge(
      data: EventRecord & { chargeId: string },
      probe: CardProbe | null,
      decide: (row: TransactionRow, usage: CardUsage | null) => ChargeDecision,
    ): Promise<
      | { status: "duplicate"; locked: boolean }
      | { status: "applied"; action: boolean; locked: boolean }
    > {
      const { accountId, chargeId } = data;
      const readParams = [
        accountId,
        data.eventId,
        chargeId,
        probe?.card ?? null,
        probe ? (probe.email ?? "") : null,
        probe?.since ?? 0,
        probe?.hourAgo ?? 0,
      ];
      /** Reads, decides and writes; "changed" when the row moved between the read and the write. */
      const attempt = async (run: Run) => {
        const [read] = await run<ReadRow>(readName(), READ, readParams);
        if (!read || read.seen) return { status: "duplicate" as const };
        const { version } = read;
        const row: TransactionRow = read.row
          ? { ...read.row, updatedAt: new Date(read.row.updatedAt) }
          : emptyTransactionRow(accountId, chargeId);
        const { update, action } = decide(
          row,
          probe
            ? { otherEmails: Number(read.otherEmails), otherCards: Number(read.otherCards) }
            : null,
        );
        // The update's defined values over the row. A plain loop: Object.assign of a
        // computed-key object per column cost ~9 µs an event, this ~0.8 µs.
        const next: Record<string, unknown> = { ...row };
        for (const name in update) {
          const value = update[name as keyof typeof update];
          if (value !== undefined) next[name] = value;
        }
        const [result] = await run<{ written: number; acted: number }>("ingest-write", WRITE, [
          accountId,
          chargeId,
          ...COLUMNS.map((name) => next[name]),
          version,
          data.eventId,
          data.type,
          data.created,
          data.status,
          action ? randomUUID() : null,
          action?.kind ?? null,
          action?.targetId ?? null,
          action?.idempotencyKey ?? null,
          action?.reason ?? null,
          action?.simulated ?? null,
          action?.nextAttemptAt ?? null,
        ]);
        if (!result?.written) return "changed" as const;
        return { status: "applied" as const, action: result.acted > 0 };
      };
      const optimistic = await attempt((name, text, params) => sql.prepared(name, text, params));
      if (optimistic !== "changed") return Object.assign(optimistic, { locked: false });
      // Another delivery about this charge won the race. Optimism would make the losers of a
      // burst retry once per winner; instead decide again with the row locked, as a queue.
      return sql.transaction(async (query) => {
        await query(CREATE_EMPTY, [accountId, chargeId]);
        await query(LOCK, [accountId, chargeId]);
        const locked = await attempt((_name, text, params) => query(text, params));
        if (locked === "changed") throw new Error(`charge ${chargeId} changed while locked`);
        return Object.assign(locked, { locked: true });
      });
    },

    async findAccountByEndpoint(webhookEndpointId: string): Promise<{ id: string } | null> {
      const rows = await sql.query<{ id: string }>(
        `SELECT "id" FROM "Account" WHERE "webhookEndpointId" = $1`,
        [webhookEndpointId],
      );
      return rows[0] ?? null;
    },

    async findEndpointId(accountId: string): Promise<{ webhookEndpointId: string }> {
      const rows = await sql.query<{ webhookEndpointId: string }>(
        `SELECT "webhookEndpointId" FROM "Account" WHERE "id" = $1`,
        [accountId],
      );
      const row = rows[0];
      if (!row) throw new Error(`account ${accountId} not found`);
      return row;
    },

    /** Whether Warden already holds the charge itself (not only a warning or a dispute). */
    async hasCharge(accountId: string, chargeId: string): Promise<boolean> {
      const rows = await sql.query<{ hasCharge: boolean }>(
        `SELECT "hasCharge" FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2`,
        [accountId, chargeId],
      );
      return rows[0]?.hasCharge ?? false;
    },
  };
}

export type StripeEventsRepository = ReturnType<typeof createStripeEventsRepository>;
