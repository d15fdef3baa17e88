/**
 * The daily rollup ("TransactionDay") against the table it summarizes, on both databases:
 * after any sequence of the writes Warden's writers make (the ingest's placeholder insert and
 * charge update, upserts, multi-row inserts and updates, refunds, blocks, deletes, a rolled
 * back transaction), the summary served from the rollup equals the one computed straight
 * from "Transaction", and so does every day outside the 30-day window. fast-check shrinks a
 * failing sequence to the shortest one that breaks it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../server/db/database.ts";
import type { PrismaClient } from "../server/db/generated/client.ts";
import {
  createTransactionsRepository,
  type DayBucket,
  type TransactionsRepository,
} from "../server/modules/transactions/transactions.repository.ts";
import { createTransactionsService } from "../server/modules/transactions/transactions.service.ts";
import { DB_KINDS, openTestDatabase } from "./helpers/databases.ts";

const NOW = new Date(Date.UTC(2026, 2, 15, 12, 0, 0));
const DAY = 86_400;
const TODAY = Math.floor(NOW.getTime() / 1000 / DAY);
/** Few ids, so that most writes land on a charge an earlier write made. */
const CHARGE_IDS = ["ch_a", "ch_b", "ch_c", "ch_d"];
const CURRENCIES = ["usd", "eur", "jpy"];
type Blocked = "stripe" | "custom_rule" | null;

/** A charge's state as a webhook leaves it: the fields the rollup depends on, and one it does not. */
type ChargeState = {
  created: number;
  currency: string;
  amount: number;
  refundedShare: number;
  blockedBy: Blocked;
  riskScore: number;
};

type Op =
  | { kind: "placeholder"; id: string }
  | { kind: "upsertCharge"; id: string; state: ChargeState }
  | { kind: "insertMany"; charges: [string, ChargeState][] }
  | { kind: "block"; id: string; blockedBy: Blocked }
  | { kind: "refund"; id: string; share: number }
  | { kind: "refundInFull"; id: string }
  | { kind: "touch"; id: string; riskScore: number }
  | { kind: "blockAllAllowed" }
  | { kind: "delete"; id: string }
  | { kind: "rolledBack"; id: string; state: ChargeState };

/** Days from the window's first day minus two to tomorrow, so both edges are crossed. */
const created = fc
  .tuple(fc.integer({ min: -31, max: 1 }), fc.integer({ min: 0, max: DAY - 1 }))
  .map(([offset, second]) => (TODAY + offset) * DAY + second);
const state: fc.Arbitrary<ChargeState> = fc.record({
  created,
  currency: fc.constantFrom(...CURRENCIES),
  amount: fc.integer({ min: 1, max: 100_000 }),
  refundedShare: fc.constantFrom(0, 0, 0.5, 1),
  blockedBy: fc.constantFrom<Blocked>(null, null, "stripe", "custom_rule"),
  riskScore: fc.integer({ min: 0, max: 99 }),
});
const id = fc.constantFrom(...CHARGE_IDS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("placeholder" as const), id }),
  fc.record({ kind: fc.constant("upsertCharge" as const), id, state }),
  fc.record({
    kind: fc.constant("insertMany" as const),
    charges: fc.uniqueArray(fc.tuple(id, state), {
      minLength: 1,
      maxLength: 4,
      selector: ([chargeId]) => chargeId,
    }),
  }),
  fc.record({
    kind: fc.constant("block" as const),
    id,
    blockedBy: fc.constantFrom<Blocked>(null, "stripe", "custom_rule"),
  }),
  fc.record({ kind: fc.constant("refund" as const), id, share: fc.constantFrom(0.25, 0.5, 1) }),
  fc.record({ kind: fc.constant("refundInFull" as const), id }),
  fc.record({
    kind: fc.constant("touch" as const),
    id,
    riskScore: fc.integer({ min: 0, max: 99 }),
  }),
  fc.record({ kind: fc.constant("blockAllAllowed" as const) }),
  fc.record({ kind: fc.constant("delete" as const), id }),
  fc.record({ kind: fc.constant("rolledBack" as const), id, state }),
);

/** Applies one write the way Warden's writers issue it (raw SQL or Prisma, one statement each). */
async function apply(prisma: PrismaClient, accountId: string, step: Op) {
  const where = (chargeId: string) => ({ accountId, chargeId });
  switch (step.kind) {
    case "placeholder":
      // The ingest's first statement for a charge it has not seen.
      await prisma.$executeRaw`
        INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
        VALUES (${accountId}, ${step.id}, now())
        ON CONFLICT ("accountId", "chargeId") DO NOTHING`;
      return;
    case "upsertCharge":
      await upsertCharge(prisma, accountId, step.id, step.state);
      return;
    case "insertMany":
      // One multi-row INSERT, as an import writes a page; ids already stored are skipped.
      await prisma.transaction.createMany({
        data: step.charges.map(([chargeId, s]) => ({ ...chargeColumns(s), accountId, chargeId })),
        skipDuplicates: true,
      });
      return;
    case "block":
      await prisma.transaction.updateMany({
        where: where(step.id),
        data: { blockedBy: step.blockedBy, outcome: step.blockedBy ? "blocked" : "succeeded" },
      });
      return;
    case "refund":
      await prisma.$executeRaw`
        UPDATE "Transaction" SET "amountRefunded" = floor("amount" * ${step.share}::float8)::int
        WHERE "accountId" = ${accountId} AND "chargeId" = ${step.id}`;
      return;
    case "refundInFull":
      // As the Stripe actions repository records a refund it made.
      await prisma.$executeRaw`
        UPDATE "Transaction" SET "amountRefunded" = "amount", "refunded" = true
        WHERE "accountId" = ${accountId} AND "chargeId" = ${step.id}`;
      return;
    case "touch":
      // Most updates change nothing the rollup counts.
      await prisma.transaction.updateMany({
        where: where(step.id),
        data: { riskScore: step.riskScore, lastEventAt: { increment: 1 } },
      });
      return;
    case "blockAllAllowed":
      await prisma.transaction.updateMany({
        where: { accountId, blockedBy: null },
        data: { blockedBy: "custom_rule", outcome: "blocked" },
      });
      return;
    case "delete":
      await prisma.transaction.deleteMany({ where: where(step.id) });
      return;
    case "rolledBack":
      await prisma
        .$transaction(async (tx) => {
          await upsertCharge(tx as PrismaClient, accountId, step.id, step.state);
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      return;
  }
}

class RolledBack extends Error {}

function chargeColumns(s: ChargeState) {
  return {
    hasCharge: true,
    created: s.created,
    currency: s.currency,
    amount: s.amount,
    amountRefunded: Math.floor(s.amount * s.refundedShare),
    blockedBy: s.blockedBy,
    outcome: s.blockedBy ? "blocked" : "succeeded",
    riskScore: s.riskScore,
  };
}

/** One INSERT ... ON CONFLICT DO UPDATE: a new charge inserts, a known one (or placeholder) updates. */
async function upsertCharge(
  prisma: PrismaClient,
  accountId: string,
  chargeId: string,
  s: ChargeState,
) {
  const c = chargeColumns(s);
  await prisma.$executeRaw`
    INSERT INTO "Transaction" ("accountId", "chargeId", "hasCharge", "created", "currency",
      "amount", "amountRefunded", "blockedBy", "outcome", "riskScore", "updatedAt")
    VALUES (${accountId}, ${chargeId}, true, ${c.created}, ${c.currency}, ${c.amount},
      ${c.amountRefunded}, ${c.blockedBy}::"BlockedBy", ${c.outcome}, ${c.riskScore}, now())
    ON CONFLICT ("accountId", "chargeId") DO UPDATE SET
      "hasCharge" = true, "created" = excluded."created", "currency" = excluded."currency",
      "amount" = excluded."amount", "amountRefunded" = excluded."amountRefunded",
      "blockedBy" = excluded."blockedBy", "outcome" = excluded."outcome",
      "riskScore" = excluded."riskScore", "updatedAt" = now()`;
}

/** The summary's buckets computed straight from "Transaction": the definition the rollup must match. */
function fromTransactions(prisma: PrismaClient) {
  return (accountId: string, firstDay: number, lastDay: number) =>
    prisma.$queryRaw<DayBucket[]>`
      SELECT ("created" / 86400)::int AS "day", "currency",
             (count(*) FILTER (WHERE "blockedBy" IS NULL))::int AS "allowed",
             (count(*) FILTER (WHERE "blockedBy" IS NOT NULL))::int AS "blocked",
             coalesce(sum("amountRefunded"), 0)::float8 AS "refunded"
      FROM "Transaction"
      WHERE "accountId" = ${accountId} AND "hasCharge"
        AND "created" >= ${firstDay * DAY} AND "created" < ${(lastDay + 1) * DAY}
      GROUP BY 1, 2`;
}

/** Every (day, currency) total, from the rollup or from the table, with all-zero keys left out. */
async function allDays(prisma: PrismaClient, accountId: string, source: "rollup" | "table") {
  const rows =
    source === "rollup"
      ? await prisma.$queryRaw<DayBucket[]>`
          SELECT "day", "currency", sum("allowed")::int AS "allowed",
                 sum("blocked")::int AS "blocked", sum("refunded")::float8 AS "refunded"
          FROM "TransactionDay" WHERE "accountId" = ${accountId} GROUP BY 1, 2`
      : await fromTransactions(prisma)(accountId, 0, 24_000);
  return rows
    .filter((r) => r.allowed !== 0 || r.blocked !== 0 || r.refunded !== 0)
    .map(
      (r) =>
        `${r.day} ${r.currency} allowed=${r.allowed} blocked=${r.blocked} refunded=${r.refunded}`,
    )
    .sort();
}

describe.each(DB_KINDS)("daily rollup on %s", (kind) => {
  let db: Database;
  let repo: TransactionsRepository;
  let run = 0;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    repo = createTransactionsRepository(db.prisma);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  /** A fresh pair of accounts: the writes go to both, interleaved, and each is checked alone. */
  async function accounts(): Promise<[string, string]> {
    run++;
    const ids: [string, string] = [`rollup-${run}-a`, `rollup-${run}-b`];
    await db.prisma.account.createMany({ data: ids.map((id) => ({ id })) });
    return ids;
  }

  async function expectInStep(accountId: string) {
    const served = createTransactionsService(repo, () => NOW);
    const straight = createTransactionsService(
      { ...repo, dayBuckets: fromTransactions(db.prisma) },
      () => NOW,
    );
    expect(await served.summary(accountId)).toEqual(await straight.summary(accountId));
    expect(await allDays(db.prisma, accountId, "rollup")).toEqual(
      await allDays(db.prisma, accountId, "table"),
    );
  }

  it("matches the table after any sequence of writes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), op), { minLength: 1, maxLength: 40, size: "max" }),
        async (steps) => {
          const [a, b] = await accounts();
          for (const [onB, step] of steps) {
            await apply(db.prisma, onB ? b : a, step);
          }
          await expectInStep(a);
          await expectInStep(b);
        },
      ),
      { numRuns: kind === "embedded" ? 40 : 60 },
    );
  }, 240_000);

  const charge = (fields: Partial<ChargeState> = {}): ChargeState => ({
    created: TODAY * DAY + 60,
    currency: "usd",
    amount: 5000,
    refundedShare: 0,
    blockedBy: null,
    riskScore: 10,
    ...fields,
  });
  const scenarios: { name: string; steps: Op[]; expected: Record<string, number> }[] = [
    {
      name: "a charge that arrives after its early fraud warning (placeholder, then charge)",
      steps: [
        { kind: "placeholder", id: "ch_a" },
        { kind: "upsertCharge", id: "ch_a", state: charge() },
      ],
      expected: { charges: 1, blocked: 0 },
    },
    {
      name: "succeeded, then blocked by a rule and refunded in full",
      steps: [
        { kind: "upsertCharge", id: "ch_a", state: charge() },
        { kind: "block", id: "ch_a", blockedBy: "custom_rule" },
        { kind: "refundInFull", id: "ch_a" },
      ],
      expected: { charges: 1, blocked: 1, refundedUsd: 50 },
    },
    {
      name: "a partial refund, then a larger one",
      steps: [
        { kind: "upsertCharge", id: "ch_a", state: charge() },
        { kind: "refund", id: "ch_a", share: 0.25 },
        { kind: "refund", id: "ch_a", share: 0.5 },
      ],
      expected: { charges: 1, blocked: 0, refundedUsd: 25 },
    },
    {
      name: "a charge moved out of the window by a later event",
      steps: [
        { kind: "upsertCharge", id: "ch_a", state: charge() },
        { kind: "upsertCharge", id: "ch_a", state: charge({ created: (TODAY - 40) * DAY }) },
      ],
      expected: { charges: 0, blocked: 0 },
    },
    {
      name: "a deleted charge",
      steps: [
        { kind: "upsertCharge", id: "ch_a", state: charge({ refundedShare: 1 }) },
        { kind: "delete", id: "ch_a" },
      ],
      expected: { charges: 0, blocked: 0 },
    },
    {
      name: "a write rolled back with its transaction",
      steps: [{ kind: "rolledBack", id: "ch_a", state: charge() }],
      expected: { charges: 0, blocked: 0 },
    },
  ];

  it.each(scenarios)("$name", async ({ steps, expected }) => {
    const [a] = await accounts();
    for (const step of steps) await apply(db.prisma, a, step);
    await expectInStep(a);
    const summary = await createTransactionsService(repo, () => NOW).summary(a);
    expect({ charges: summary.charges, blocked: summary.blocked }).toEqual({
      charges: expected.charges,
      blocked: expected.blocked,
    });
    expect(summary.refunded).toEqual(
      expected.refundedUsd ? [{ currency: "usd", amount: expected.refundedUsd }] : [],
    );
  });

  it("is rebuilt identically by the migration's backfill", async () => {
    const [a, b] = await accounts();
    for (const [accountId, chargeId, fields] of [
      [a, "ch_a", { refundedShare: 1, blockedBy: "custom_rule" }],
      [a, "ch_b", { currency: "eur", created: (TODAY - 3) * DAY }],
      [b, "ch_a", { blockedBy: "stripe" }],
    ] as const) {
      await apply(db.prisma, accountId, {
        kind: "upsertCharge",
        id: chargeId,
        state: charge(fields),
      });
    }
    await apply(db.prisma, a, { kind: "placeholder", id: "ch_c" });
    const migration = await readFile(
      join(
        import.meta.dirname,
        "../prisma/migrations/20261122103505_transaction_day/migration.sql",
      ),
      "utf8",
    );
    const backfill = migration.slice(migration.indexOf("-- Backfill"));
    const before = await allDays(db.prisma, a, "rollup");
    await db.prisma.$executeRawUnsafe(`DELETE FROM "TransactionDay"`);
    await db.prisma.$executeRawUnsafe(backfill.replace(/;\s*$/, ""));
    expect(await allDays(db.prisma, a, "rollup")).toEqual(before);
    await expectInStep(a);
    await expectInStep(b);
  });

  it("goes with its account", async () => {
    const [a] = await accounts();
    await apply(db.prisma, a, { kind: "upsertCharge", id: "ch_a", state: charge() });
    await db.prisma.account.delete({ where: { id: a } });
    expect(await db.prisma.transactionDay.count({ where: { accountId: a } })).toBe(0);
  });
});
