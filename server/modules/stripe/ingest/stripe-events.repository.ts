/**
 * The only code that touches the database for ingesting Stripe events: the inbox, the charge
 * rows and the actions they decide.
 * An event that changes a charge is one database transaction: the event row, the charge row
 * and any action are committed together or not at all. Every Stripe delivery passes here, so
 * it is plain SQL in two statements: one reads the row and the card's use, the caller decides,
 * one writes it all if the row has not changed meanwhile (optimistic, checked by the row's
 * version; decision 009). Both are prepared (sql-runner.ts) and take a batch: deliveries that
 * arrive while earlier ones are being read or written share the next statement (batcher.ts),
 * so under load one round trip, one plan execution and one commit serve many events. An
 * event that changes nothing is one statement.
 */
import { randomUUID } from "node:crypto";
import type { Prisma } from "../../../db/generated/client.ts";
import type { SqlQuery, SqlRunner } from "../../../db/sql-runner.ts";
import { createBatcher } from "../../../lib/batcher.ts";
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
 * Everything a decision needs, for a batch of events (a JSON array, answered in its order),
 * in one read: whether the event is stored already, the charge's row (as one
 * JSON value: 5 result columns to describe and parse instead of 36) with its version (xmin:
 * the id of the transaction that wrote this row version, so any later write changes it), and
 * rule_cc_reuse's counts (zero without a probe). The event and the row are looked up per event
 * (LATERAL with LIMIT 1: an index scan per event whatever the plan thinks of the batch's size;
 * as EXISTS, a plan made on a young table hashed a scan of the whole event table).
 * Each count is its own subquery with both its columns in one index, so that even a plan made
 * without statistics uses that index: one count over "card OR email" was planned, on a young
 * table, as a scan of the whole account.
 */
export const READ = `
  SELECT "e"."n",
    "stored"."seen" IS NOT NULL AS "seen", "found"."row", "found"."version",
    (
      SELECT count(DISTINCT "c"."email")::int FROM "Transaction" AS "c"
      WHERE "c"."accountId" = "e"."accountId" AND "c"."cardFingerprint" = "e"."card"
        AND "c"."chargeId" <> "e"."chargeId" AND "c"."email" <> "e"."email"
        AND "c"."created" >= "e"."since"
    ) AS "otherEmails",
    (
      SELECT count(DISTINCT "c"."cardFingerprint")::int FROM "Transaction" AS "c"
      WHERE "c"."accountId" = "e"."accountId" AND "c"."email" = "e"."email"
        AND "c"."chargeId" <> "e"."chargeId" AND "c"."cardFingerprint" <> "e"."card"
        AND "c"."created" >= "e"."hourAgo"
    ) AS "otherCards"
  FROM ROWS FROM (json_to_recordset($1::json) AS ("accountId" text, "eventId" text,
    "chargeId" text, "card" text, "email" text, "since" int, "hourAgo" int))
    WITH ORDINALITY AS "e"("accountId", "eventId", "chargeId", "card", "email", "since",
      "hourAgo", "n")
  LEFT JOIN LATERAL (
    SELECT 1 AS "seen" FROM "StripeEvent" AS "s"
    WHERE "s"."accountId" = "e"."accountId" AND "s"."eventId" = "e"."eventId"
    LIMIT 1
  ) AS "stored" ON true
  LEFT JOIN LATERAL (
    SELECT row_to_json("t") AS "row", "t"."xmin"::text AS "version"
    FROM "Transaction" AS "t"
    WHERE "t"."accountId" = "e"."accountId" AND "t"."chargeId" = "e"."chargeId"
    LIMIT 1
  ) AS "found" ON true
  ORDER BY "e"."n"`;

const column = (name: string) => `"${name}"`;
const list = (names: readonly string[]) => names.map(column).join(", ");

/**
 * The decisions of a batch of events about distinct charges (a JSON array: per event the
 * charge's whole row, the version it was decided on, the event and any action), written as
 * one statement, so one transaction, and answered in the batch's order. A row is written only
 * if it is still the version its decision was made on (no row, for a charge that had none);
 * then, only for the rows written, the event and the action. An event whose row was not
 * written keeps nothing: its caller decides again on the newer row. INSERT … ON CONFLICT finds
 * each row through the primary key whatever plan PostgreSQL keeps (an UPDATE … FROM, planned
 * on a young table, hashed a scan of the whole table: 634 events/s), takes the same row lock
 * as SELECT … FOR UPDATE and checks the version on the newest committed row. Rows go in key
 * order, so two batches lock the rows they share in the same order.
 */
export const WRITE = `
  WITH "input" AS (
    SELECT "r".*, "e".*
    FROM ROWS FROM (json_to_recordset($1::json) AS ("row" json, "version" text,
      "eventId" text, "eventType" text, "eventCreated" int, "eventStatus" text,
      "actionId" text, "kind" "StripeActionKind", "targetId" text, "idempotencyKey" text,
      "reason" text, "simulated" boolean, "nextAttemptAt" timestamp(3)))
      WITH ORDINALITY AS "e"("row", "version", "eventId", "eventType", "eventCreated",
        "eventStatus", "actionId", "kind", "targetId", "idempotencyKey", "reason",
        "simulated", "nextAttemptAt", "n")
    CROSS JOIN LATERAL json_populate_record(NULL::"Transaction", "e"."row") AS "r"
  ), "written" AS (
    INSERT INTO "Transaction" AS "t" ("accountId", "chargeId", ${list(COLUMNS)}, "updatedAt")
    SELECT "accountId", "chargeId", ${list(COLUMNS)}, now() FROM "input"
    ORDER BY "accountId", "chargeId"
    ON CONFLICT ("accountId", "chargeId") DO UPDATE SET
      ${COLUMNS.map((name) => `${column(name)} = EXCLUDED.${column(name)}`).join(", ")},
      "updatedAt" = EXCLUDED."updatedAt"
    WHERE "t"."xmin" = (
      SELECT "i"."version"::xid FROM "input" AS "i"
      WHERE "i"."accountId" = EXCLUDED."accountId" AND "i"."chargeId" = EXCLUDED."chargeId"
    )
    RETURNING "t"."accountId", "t"."chargeId"
  ), "stored" AS (
    INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
    SELECT "i"."accountId", "i"."eventId", "i"."eventType", "i"."eventCreated",
      "i"."eventStatus", "i"."chargeId"
    FROM "input" AS "i" JOIN "written" USING ("accountId", "chargeId")
    ON CONFLICT ("accountId", "eventId") DO NOTHING
    RETURNING 1
  ), "acted" AS (
    INSERT INTO "StripeAction" ("id", "accountId", "chargeId", "kind", "targetId",
      "idempotencyKey", "reason", "simulated", "nextAttemptAt", "updatedAt")
    SELECT "i"."actionId", "i"."accountId", "i"."chargeId", "i"."kind", "i"."targetId",
      "i"."idempotencyKey", "i"."reason", "i"."simulated", "i"."nextAttemptAt", now()
    FROM "input" AS "i" JOIN "written" USING ("accountId", "chargeId")
    WHERE "i"."idempotencyKey" IS NOT NULL
    ON CONFLICT ("accountId", "idempotencyKey") DO NOTHING
    RETURNING "accountId", "chargeId"
  )
  SELECT "i"."n",
    EXISTS (SELECT 1 FROM "written" AS "w"
      WHERE "w"."accountId" = "i"."accountId" AND "w"."chargeId" = "i"."chargeId") AS "written",
    EXISTS (SELECT 1 FROM "acted" AS "a"
      WHERE "a"."accountId" = "i"."accountId" AND "a"."chargeId" = "i"."chargeId") AS "acted"
  FROM "input" AS "i"
  ORDER BY "i"."n"`;

/** For the locked retry: the charge's row, created empty if new, then locked. */
const CREATE_EMPTY = `INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
  VALUES ($1, $2, now()) ON CONFLICT ("accountId", "chargeId") DO NOTHING`;
const LOCK = `SELECT 1 FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2 FOR UPDATE`;

type ReadItem = {
  accountId: string;
  eventId: string;
  chargeId: string;
  card: string | null;
  email: string | null;
  since: number;
  hourAgo: number;
};

type WriteItem = {
  /** The charge's whole row as decided: its key says which charge the item writes. */
  row: Record<string, unknown> & { accountId: string; chargeId: string };
  version: string | null;
  eventId: string;
  eventType: string;
  eventCreated: number;
  eventStatus: string;
  actionId: string | null;
  kind: ActionRecord["kind"] | null;
  targetId: string | null;
  idempotencyKey: string | null;
  reason: string | null;
  simulated: boolean | null;
  nextAttemptAt: Date | null;
};

type Written = { written: boolean; acted: boolean };

/** A transaction's connection as a Run: the same statements, unprepared. */
const onConnection =
  (query: SqlQuery): Run =>
  (_name, text, params) =>
    query(text, params);

/** Runs a batch statement: prepared under `name`, or on a transaction's connection. */
type Run = <T>(name: string, text: string, params: unknown[]) => Promise<T[]>;

const readBatch = (run: Run, name: string, items: ReadItem[]) =>
  run<ReadRow>(name, READ, [JSON.stringify(items)]);

const writeBatch = (run: Run, items: WriteItem[]) =>
  run<Written>("ingest-write", WRITE, [JSON.stringify(items)]);

/** At most this many events share a statement; beyond it they wait for the next. */
const MAX_BATCH = 64;
/**
 * One batch in flight per statement: the next gathers everything that arrived meanwhile.
 * Measured (bench:webhooks, PostgreSQL, 40,000 events, alternating runs): 2,396 and 2,414
 * events/s with one lane (4.5 events per read, 6.6 per write), 2,213 and 2,065 with two, 1,548
 * with four. One lane also means this instance's batches never wait on each other's locks.
 */
const LANES = 1;

export function createStripeEventsRepository(
  sql: SqlRunner,
  /** Told the size of each batch sent, per statement (the metrics). */
  onBatch: (statement: "read" | "write", size: number) => void = () => {},
) {
  let reads = 0;
  /**
   * The read is prepared too (planning it on every call was a quarter of PostgreSQL's work per
   * event), but the plan PostgreSQL keeps is made from the table as it was: one made while a
   * new install's table was nearly empty looks the charge up through the smallest index and
   * scans the whole account once the table has grown (seen: 700 → 150 events/s). So the
   * statement is prepared afresh, under a new name, after 10, 100, ... 1,000,000 events read.
   */
  const readName = (count: number) => {
    reads += count;
    return `ingest-read-${Math.min(6, Math.floor(Math.log10(reads)))}`;
  };
  const prepared: Run = (name, text, params) => sql.prepared(name, text, params);
  const read = createBatcher(
    (items: ReadItem[]) => readBatch(prepared, readName(items.length), items),
    { lanes: LANES, maxBatch: MAX_BATCH, onBatch: (size) => onBatch("read", size) },
  );
  const write = createBatcher((items: WriteItem[]) => writeBatch(prepared, items), {
    lanes: LANES,
    maxBatch: MAX_BATCH,
    // Two writes of one row cannot share a statement: the second waits for the next one.
    canJoin: (item, batch) =>
      !batch.some(
        (other) =>
          other.row.chargeId === item.row.chargeId && other.row.accountId === item.row.accountId,
      ),
    onBatch: (size) => onBatch("write", size),
  });

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
      const readItem: ReadItem = {
        accountId,
        eventId: data.eventId,
        chargeId,
        card: probe?.card ?? null,
        email: probe ? (probe.email ?? "") : null,
        since: probe?.since ?? 0,
        hourAgo: probe?.hourAgo ?? 0,
      };
      /** Reads, decides and writes; "changed" when the row moved between the read and the write. */
      const attempt = async (
        load: (item: ReadItem) => Promise<ReadRow | undefined>,
        save: (item: WriteItem) => Promise<Written | undefined>,
      ) => {
        const read = await load(readItem);
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
        const next: WriteItem["row"] = { ...row };
        for (const name in update) {
          const value = update[name as keyof typeof update];
          if (value !== undefined) next[name] = value;
        }
        const result = await save({
          row: next,
          version,
          eventId: data.eventId,
          eventType: data.type,
          eventCreated: data.created,
          eventStatus: data.status,
          actionId: action ? randomUUID() : null,
          kind: action?.kind ?? null,
          targetId: action?.targetId ?? null,
          idempotencyKey: action?.idempotencyKey ?? null,
          reason: action?.reason ?? null,
          simulated: action?.simulated ?? null,
          nextAttemptAt: action?.nextAttemptAt ?? null,
        });
        if (!result?.written) return "changed" as const;
        return { status: "applied" as const, action: result.acted };
      };
      const optimistic = await attempt(read, write);
      if (optimistic !== "changed") return Object.assign(optimistic, { locked: false });
      // Another delivery about this charge won the race. Optimism would make the losers of a
      // burst retry once per winner; instead decide again with the row locked, as a queue.
      return sql.transaction(async (query) => {
        await query(CREATE_EMPTY, [accountId, chargeId]);
        await query(LOCK, [accountId, chargeId]);
        const run = onConnection(query);
        const locked = await attempt(
          async (item) => (await readBatch(run, "", [item]))[0],
          async (item) => (await writeBatch(run, [item]))[0],
        );
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
