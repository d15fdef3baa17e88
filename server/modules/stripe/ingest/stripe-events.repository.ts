/**
 * The only code that touches the database for ingesting Stripe events: the inbox, the charge
 * rows and the actions they decide.
 * Ingestion runs inside one database transaction: the event row, the charge row and any
 * action are committed together or not at all. Every Stripe delivery passes here, so it is
 * plain SQL on the pool (sql-runner.ts) and as few statements as the guarantees allow: one that
 * records the event and locks its charge's row, one that saves the row.
 */
import { randomUUID } from "node:crypto";
import type { Prisma } from "../../../db/generated/client.ts";
import type { SqlQuery, SqlRunner } from "../../../db/sql-runner.ts";
import type { TransactionRow } from "../../transactions/transactions.repository.ts";

type Tx = SqlQuery;
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

const INSERT_EVENT = `
  INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ("accountId", "eventId") DO NOTHING`;

const COLUMN = /^[A-Za-z]+$/;

export function createStripeEventsRepository(sql: SqlRunner) {
  const eventParams = (e: EventRecord) => [
    e.accountId,
    e.eventId,
    e.type,
    e.created,
    e.status,
    e.chargeId,
  ];

  const inTx = {
    /** Stores the event id; false when this account already has it (a duplicate delivery). */
    async recordEvent(tx: Tx, data: EventRecord): Promise<boolean> {
      const rows = await tx(`${INSERT_EVENT} RETURNING 1 AS "fresh"`, eventParams(data));
      return rows.length === 1;
    },

    /**
     * Stores the event id and, when it is new, returns its charge's row (created empty if
     * new), locked until the transaction ends; null for a duplicate delivery. One statement:
     * the row's insert runs only if the event's did, and ON CONFLICT DO UPDATE locks an
     * existing row as SELECT … FOR UPDATE would, returning its latest committed state.
     */
    async recordEventAndLock(
      tx: Tx,
      data: EventRecord & { chargeId: string },
    ): Promise<TransactionRow | null> {
      const rows = await tx<TransactionRow>(
        `WITH "event" AS (${INSERT_EVENT} RETURNING 1)
         INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
         SELECT $1, $6, now() FROM "event"
         ON CONFLICT ("accountId", "chargeId") DO UPDATE SET "accountId" = EXCLUDED."accountId"
         RETURNING *`,
        eventParams(data),
      );
      return rows[0] ?? null;
    },

    async saveTransaction(tx: Tx, accountId: string, chargeId: string, data: TransactionUpdate) {
      const entries = Object.entries(data).filter(([, value]) => value !== undefined);
      const sets = entries.map(([column], i) => {
        if (!COLUMN.test(column)) throw new Error(`not a Transaction column: ${column}`);
        return `"${column}" = $${i + 3}`;
      });
      await tx(
        `UPDATE "Transaction" SET ${[...sets, `"updatedAt" = now()`].join(", ")}
         WHERE "accountId" = $1 AND "chargeId" = $2`,
        [accountId, chargeId, ...entries.map(([, value]) => value)],
      );
    },

    /** Records a decided action once; its idempotency key makes a second decision a no-op. */
    async createAction(
      tx: Tx,
      data: {
        accountId: string;
        chargeId: string;
        kind: "refund" | "cancel";
        targetId: string;
        idempotencyKey: string;
        reason: string;
        simulated: boolean;
        nextAttemptAt: Date;
      },
    ): Promise<boolean> {
      const rows = await tx(
        `INSERT INTO "StripeAction" ("id", "accountId", "chargeId", "kind", "targetId",
           "idempotencyKey", "reason", "simulated", "nextAttemptAt", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         ON CONFLICT ("accountId", "idempotencyKey") DO NOTHING
         RETURNING 1`,
        [
          randomUUID(),
          data.accountId,
          data.chargeId,
          data.kind,
          data.targetId,
          data.idempotencyKey,
          data.reason,
          data.simulated,
          data.nextAttemptAt,
        ],
      );
      return rows.length === 1;
    },
  };

  return {
    ...inTx,

    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return sql.transaction(work);
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

    /**
     * For rule_cc_reuse on a charge: other emails that paid with this card since `since`, and
     * other cards this email paid with since `hourAgo` (Unix seconds).
     */
    async cardUsage(
      accountId: string,
      charge: { chargeId: string; card: string; email: string | null },
      since: number,
      hourAgo: number,
    ): Promise<{ otherEmails: number; otherCards: number }> {
      const rows = await sql.query<{ otherEmails: number; otherCards: number }>(
        `SELECT
           count(DISTINCT "email") FILTER (
             WHERE "cardFingerprint" = $2 AND "email" <> $3 AND "created" >= $5
           )::int AS "otherEmails",
           count(DISTINCT "cardFingerprint") FILTER (
             WHERE "email" = $3 AND "cardFingerprint" <> $2 AND "created" >= $6
           )::int AS "otherCards"
         FROM "Transaction"
         WHERE "accountId" = $1 AND "chargeId" <> $4
           AND ("cardFingerprint" = $2 OR "email" = $3)`,
        [accountId, charge.card, charge.email ?? "", charge.chargeId, since, hourAgo],
      );
      return {
        otherEmails: Number(rows[0]?.otherEmails ?? 0),
        otherCards: Number(rows[0]?.otherCards ?? 0),
      };
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
