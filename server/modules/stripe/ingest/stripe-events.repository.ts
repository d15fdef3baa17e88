/**
 * The only code that touches the database for ingesting Stripe events: the inbox, the charge
 * rows and the actions they decide.
 * An event that changes a charge is one database transaction: the event row, the charge row
 * and any action are committed together or not at all. Every Stripe delivery passes here, so
 * it is plain SQL and two round trips (sql-runner.ts batches): the first begins, records the
 * event, locks its charge's row and reads the card's use; the caller decides; the second saves
 * the row, records the action and commits. An event that changes nothing is one statement.
 */
import { randomUUID } from "node:crypto";
import type { Prisma } from "../../../db/generated/client.ts";
import type { SqlRunner, Statement } from "../../../db/sql-runner.ts";
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

export type ChargeDecision = { update: TransactionUpdate; action: ActionRecord | null };

const INSERT_EVENT = `
  INSERT INTO "StripeEvent" ("accountId", "eventId", "type", "created", "status", "chargeId")
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ("accountId", "eventId") DO NOTHING`;

const COLUMN = /^[A-Za-z]+$/;

const eventParams = (e: EventRecord) => [
  e.accountId,
  e.eventId,
  e.type,
  e.created,
  e.status,
  e.chargeId,
];

/**
 * Stores the event id and, when it is new, returns its charge's row (created empty if new),
 * locked until the transaction ends; no row for a duplicate delivery. The row's insert runs
 * only if the event's did, and ON CONFLICT DO UPDATE locks an existing row as
 * SELECT … FOR UPDATE would, returning its latest committed state.
 */
function recordEventAndLock(data: EventRecord): Statement {
  return {
    text: `WITH "event" AS (${INSERT_EVENT} RETURNING 1)
      INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
      SELECT $1, $6, now() FROM "event"
      ON CONFLICT ("accountId", "chargeId") DO UPDATE SET "accountId" = EXCLUDED."accountId"
      RETURNING *`,
    params: eventParams(data),
  };
}

function cardUsage(accountId: string, chargeId: string, probe: CardProbe): Statement {
  return {
    text: `SELECT
        count(DISTINCT "email") FILTER (
          WHERE "cardFingerprint" = $2 AND "email" <> $3 AND "created" >= $5
        )::int AS "otherEmails",
        count(DISTINCT "cardFingerprint") FILTER (
          WHERE "email" = $3 AND "cardFingerprint" <> $2 AND "created" >= $6
        )::int AS "otherCards"
      FROM "Transaction"
      WHERE "accountId" = $1 AND "chargeId" <> $4
        AND ("cardFingerprint" = $2 OR "email" = $3)`,
    params: [accountId, probe.card, probe.email ?? "", chargeId, probe.since, probe.hourAgo],
  };
}

function saveTransaction(accountId: string, chargeId: string, data: TransactionUpdate): Statement {
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], i) => {
    if (!COLUMN.test(column)) throw new Error(`not a Transaction column: ${column}`);
    return `"${column}" = $${i + 3}`;
  });
  return {
    text: `UPDATE "Transaction" SET ${[...sets, `"updatedAt" = now()`].join(", ")}
      WHERE "accountId" = $1 AND "chargeId" = $2`,
    params: [accountId, chargeId, ...entries.map(([, value]) => value)],
  };
}

/** Records a decided action once; its idempotency key makes a second decision a no-op. */
function createAction(accountId: string, chargeId: string, action: ActionRecord): Statement {
  return {
    text: `INSERT INTO "StripeAction" ("id", "accountId", "chargeId", "kind", "targetId",
        "idempotencyKey", "reason", "simulated", "nextAttemptAt", "updatedAt")
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
      ON CONFLICT ("accountId", "idempotencyKey") DO NOTHING
      RETURNING 1`,
    params: [
      randomUUID(),
      accountId,
      chargeId,
      action.kind,
      action.targetId,
      action.idempotencyKey,
      action.reason,
      action.simulated,
      action.nextAttemptAt,
    ],
  };
}

export function createStripeEventsRepository(sql: SqlRunner) {
  return {
    /** Stores an event that changes no charge; false when this account already has it. */
    async recordEvent(data: EventRecord): Promise<boolean> {
      const rows = await sql.query(`${INSERT_EVENT} RETURNING 1 AS "fresh"`, eventParams(data));
      return rows.length === 1;
    },

    /**
     * Records the event and applies `decide` to its charge's row, in one transaction: the
     * row is locked from the read to the commit, so two deliveries about one charge are
     * decided one after the other, each on the other's result. A duplicate delivery changes
     * nothing. `probe` asks for rule_cc_reuse's counts, read inside the same transaction.
     */
    async applyToCharge(
      data: EventRecord & { chargeId: string },
      probe: CardProbe | null,
      decide: (row: TransactionRow, usage: CardUsage | null) => ChargeDecision,
    ): Promise<{ status: "duplicate" } | { status: "applied"; action: boolean }> {
      const { accountId, chargeId } = data;
      return sql.batches(async (tx) => {
        const reads = [recordEventAndLock(data)];
        if (probe) reads.push(cardUsage(accountId, chargeId, probe));
        const [locked, counted] = await tx.run(reads);
        const row = locked?.[0] as TransactionRow | undefined;
        if (!row) return { status: "duplicate" as const };
        const usage = counted?.[0];
        const { update, action } = decide(
          row,
          probe
            ? {
                otherEmails: Number(usage?.otherEmails ?? 0),
                otherCards: Number(usage?.otherCards ?? 0),
              }
            : null,
        );
        const writes = [saveTransaction(accountId, chargeId, update)];
        if (action) writes.push(createAction(accountId, chargeId, action));
        await tx.commit(writes);
        return { status: "applied" as const, action: action !== null };
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
