/**
 * The ingest repository's guarantees under concurrency, on both databases: a decision is
 * written only on the row it was made on (else made again), an event is stored and applied
 * once however many deliveries race, and a new charge starts as the table's defaults make it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../../test/helpers/databases.ts";
import type { Database } from "../../../db/database.ts";
import {
  type ChargeDecision,
  createStripeEventsRepository,
  emptyTransactionRow,
  type StripeEventsRepository,
} from "./stripe-events.repository.ts";

describe.each(DB_KINDS)("Stripe event repository (%s)", (kind) => {
  let db: Database;
  let repo: StripeEventsRepository;
  const accountId = `acct-${randomUUID()}`;
  const otherAccountId = `acct-${randomUUID()}`;
  /** The size of each batch the repository sent, per statement. */
  const batches: { statement: string; size: number }[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    for (const id of [accountId, otherAccountId]) {
      await db.sql.query(`INSERT INTO "Account" ("id") VALUES ($1)`, [id]);
    }
    repo = createStripeEventsRepository(db.sql, (statement, size) =>
      batches.push({ statement, size }),
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  const event = (chargeId: string, eventId = `evt_${randomUUID()}`) => ({
    accountId,
    eventId,
    type: "charge.succeeded",
    created: 1_790_000_000,
    status: "applied",
    chargeId,
  });

  /** Adds one to the charge's amount: a lost update shows as a smaller total. */
  const addOne = (): ChargeDecision => ({ update: {}, action: null });
  const increment = (row: { amount: number }) => ({
    ...addOne(),
    update: { amount: row.amount + 1, hasCharge: true },
  });

  async function stored(chargeId: string, account = accountId) {
    const [row] = await db.sql.query<{ amount: number; events: number; actions: number }>(
      `SELECT "amount",
        (SELECT count(*)::int FROM "StripeEvent" WHERE "accountId" = $1 AND "chargeId" = $2) AS "events",
        (SELECT count(*)::int FROM "StripeAction" WHERE "accountId" = $1 AND "chargeId" = $2) AS "actions"
      FROM "Transaction" WHERE "accountId" = $1 AND "chargeId" = $2`,
      [account, chargeId],
    );
    return row;
  }

  it("starts a new charge as the table's defaults would make it", async () => {
    const chargeId = `ch_${randomUUID()}`;
    const [inserted] = await db.sql.query<Record<string, unknown>>(
      `INSERT INTO "Transaction" ("accountId", "chargeId", "updatedAt")
       VALUES ($1, $2, now()) RETURNING *`,
      [accountId, chargeId],
    );
    const { updatedAt: _at, ...expected } = inserted ?? {};
    const { updatedAt: _now, ...empty } = emptyTransactionRow(accountId, chargeId);
    expect(empty).toEqual(expected);
  });

  it("applies events about one charge that arrive at once each on the other's result", async () => {
    const chargeId = `ch_${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 12 }, () => repo.applyToCharge(event(chargeId), null, increment)),
    );
    expect(results.every((r) => r.status === "applied")).toBe(true);
    // Without the version check, decisions made on the same row overwrite each other.
    expect(await stored(chargeId)).toEqual({ amount: 12, events: 12, actions: 0 });
    // Some lost the race and decided again with the row locked: the race was real.
    expect(results.some((r) => r.locked)).toBe(true);
  });

  it("stores and applies one event once, however many deliveries of it race", async () => {
    const chargeId = `ch_${randomUUID()}`;
    const delivery = event(chargeId);
    const refund = (row: { amount: number }): ChargeDecision => ({
      update: { amount: row.amount + 1, hasCharge: true },
      action: {
        kind: "refund",
        targetId: chargeId,
        idempotencyKey: `refund-${chargeId}`,
        reason: "test",
        simulated: true,
        nextAttemptAt: new Date(),
      },
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => repo.applyToCharge({ ...delivery }, null, refund)),
    );
    expect(results.filter((r) => r.status === "applied")).toHaveLength(1);
    expect(results.filter((r) => r.status === "duplicate")).toHaveLength(11);
    expect(await stored(chargeId)).toEqual({ amount: 1, events: 1, actions: 1 });
    // A later delivery of it changes nothing.
    expect(await repo.applyToCharge({ ...delivery }, null, refund)).toEqual({
      status: "duplicate",
      locked: false,
    });
    expect(await stored(chargeId)).toEqual({ amount: 1, events: 1, actions: 1 });
  });

  it("reads and writes events that arrive together in one statement each, for any account", async () => {
    const deliveries = Array.from({ length: 8 }, (_, i) => ({
      ...event(`ch_${randomUUID()}`),
      accountId: i % 2 ? accountId : otherAccountId,
    }));
    batches.length = 0;
    const results = await Promise.all(
      deliveries.map((delivery) => repo.applyToCharge(delivery, null, increment)),
    );
    expect(results).toEqual(
      deliveries.map(() => ({ status: "applied", action: false, locked: false })),
    );
    expect(batches).toEqual([
      { statement: "read", size: 8 },
      { statement: "write", size: 8 },
    ]);
    for (const delivery of deliveries) {
      expect(await stored(delivery.chargeId, delivery.accountId)).toEqual({
        amount: 1,
        events: 1,
        actions: 0,
      });
    }
  });

  it("fails only the event whose write fails; the others of its batch are applied", async () => {
    const good = [event(`ch_${randomUUID()}`), event(`ch_${randomUUID()}`)];
    const bad = event(`ch_${randomUUID()}`);
    const notANumber = (): ChargeDecision => ({
      update: { amount: "not a number" as unknown as number, hasCharge: true },
      action: null,
    });
    batches.length = 0;
    const results = await Promise.allSettled([
      repo.applyToCharge(good[0] as typeof bad, null, increment),
      repo.applyToCharge(bad, null, notANumber),
      repo.applyToCharge(good[1] as typeof bad, null, increment),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    // The batch of three failed as a whole and kept nothing; each then went alone.
    expect(batches.filter((b) => b.statement === "write").map((b) => b.size)).toEqual([3, 1, 1, 1]);
    for (const { chargeId } of good) {
      expect(await stored(chargeId)).toEqual({ amount: 1, events: 1, actions: 0 });
    }
    expect(await stored(bad.chargeId)).toBeUndefined();
  });

  it("counts the card's other emails and the email's other cards with the row", async () => {
    const card = `fp_${randomUUID()}`;
    const since = 1_700_000_000;
    for (const [chargeId, email, fingerprint] of [
      [`ch_${randomUUID()}`, "a@example.com", card],
      [`ch_${randomUUID()}`, "b@example.com", card],
      [`ch_${randomUUID()}`, "c@example.com", `fp_${randomUUID()}`],
    ] as const) {
      await repo.applyToCharge(event(chargeId), null, () => ({
        update: { hasCharge: true, email, cardFingerprint: fingerprint, created: since + 10 },
        action: null,
      }));
    }
    let seen = null as unknown;
    await repo.applyToCharge(
      event(`ch_${randomUUID()}`),
      { card, email: "c@example.com", since, hourAgo: since },
      (_row, usage) => {
        seen = usage;
        return addOne();
      },
    );
    // a@ and b@ paid with this card; c@ paid with one other card.
    expect(seen).toEqual({ otherEmails: 2, otherCards: 1 });
  });
});
