/**
 * The SQL text of the ingest path (decision 009), apart from the code that runs it
 * (stripe-events.repository.ts): the two batch statements, read and write, with the shapes of
 * their JSON input and output, and the few single statements beside them. Keeping the text
 * here lets the repository read as what it does: batch, read, decide, write, retry locked.
 */
import type { StripeActionKind } from "../../../db/generated/client.ts";
import type { TransactionRow } from "../../../db/rows.ts";

/** Stores an event that changes no charge; one row back when it is new. */
export const INSERT_EVENT = `
  INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ("accountId", "eventId") DO NOTHING
  RETURNING 1 AS "fresh"`;

/**
 * A charge Warden has not seen yet, as the table's defaults would make it (checked against the
 * database in stripe-events.repository.int.test.ts). Typed against the model, so a column
 * added to Transaction must be added here: its keys are also the columns a write sets.
 */
export const EMPTY_ROW: Omit<TransactionRow, "accountId" | "chargeId" | "updatedAt"> = {
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
  personalClearedAt: null,
  livemode: false,
  demo: false,
  efwId: null,
  efwActionable: null,
  efwFraudType: null,
  outcome: "pending",
  blockedBy: null,
  ruleReason: null,
  ruleKeys: [],
  actionKind: null,
  actionStatus: null,
  actionError: null,
  lastEventAt: 0,
  reviewStatus: null,
  reviewReasons: null,
  reviewedAt: null,
  reviewedBy: null,
  reviewNote: null,
};

const COLUMNS = Object.keys(EMPTY_ROW) as (keyof typeof EMPTY_ROW)[];

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
export const CREATE_EMPTY = `INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
  VALUES ($1, $2, now()) ON CONFLICT ("accountId", "chargeId") DO NOTHING`;
export const LOCK = `SELECT 1 FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2 FOR UPDATE`;

export const FIND_ACCOUNT_BY_ENDPOINT = `SELECT "id" FROM "Account" WHERE "webhookEndpointId" = $1`;
export const FIND_ENDPOINT_ID = `SELECT "webhookEndpointId" FROM "Account" WHERE "id" = $1`;
export const HAS_CHARGE = `SELECT "hasCharge" FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2`;

/** One event of a READ batch; `card` is null without a probe (its counts are then zero). */
export type ReadItem = {
  accountId: string;
  eventId: string;
  chargeId: string;
  card: string | null;
  email: string | null;
  since: number;
  hourAgo: number;
};

/** READ's answer for one event. */
export type ReadRow = {
  /** The row as JSON: numbers, booleans and strings as stored, "updatedAt" as text. */
  row: (Omit<TransactionRow, "updatedAt"> & { updatedAt: string }) | null;
  version: string | null;
  seen: boolean;
  otherEmails: number;
  otherCards: number;
};

/** One decision of a WRITE batch. */
export type WriteItem = {
  /** The charge's whole row as decided: its key says which charge the item writes. */
  row: Record<string, unknown> & { accountId: string; chargeId: string };
  version: string | null;
  eventId: string;
  eventType: string;
  eventCreated: number;
  eventStatus: string;
  actionId: string | null;
  kind: StripeActionKind | null;
  targetId: string | null;
  idempotencyKey: string | null;
  reason: string | null;
  simulated: boolean | null;
  nextAttemptAt: Date | null;
};

export type Written = { written: boolean; acted: boolean };
