/**
 * A screening's decision event is stored by the statement that stores the screening, on both
 * databases: one delivery per endpoint that wants it (not a disabled one), none for an allow;
 * a batch the database refuses is written one screening at a time, each with its own events,
 * and no event is stored without its screening; and a batch whose account no endpoint wants
 * events of keeps the plain statement (no extra work on the hot path).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import { createLocalChangeFeed } from "../../db/change-feed.ts";
import type { Database } from "../../db/database.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import { screeningEvents } from "../webhooks/decision-events.ts";
import { createSubscriptions } from "../webhooks/subscriptions.ts";
import { createWebhooksRepository } from "../webhooks/webhooks.repository.ts";
import { identitiesOf } from "./features/identities.ts";
import { createScreeningRepository, type StoredScreening } from "./screening.repository.ts";
import { createScreeningBatches } from "./screening-batches.ts";

const KEY = "k".repeat(64);

describe.each(DB_KINDS)("screening events stored with their screening (%s)", (kind) => {
  let db: Database;
  let subscribed = "";
  let quiet = "";
  /** The names of the statements the screening path ran, in order. */
  const statements: string[] = [];
  let batches: ReturnType<typeof createScreeningBatches>;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    subscribed = (await db.prisma.account.create({ data: {} })).id;
    quiet = (await db.prisma.account.create({ data: {} })).id;
    const endpoint = (accountId: string, events: string[], disabledAt: Date | null = null) =>
      db.prisma.webhookEndpoint.create({
        data: {
          accountId,
          url: "https://hooks.example.com/w",
          events,
          secretCipher: "x",
          disabledAt,
        },
      });
    await endpoint(subscribed, ["screening.blocked", "screening.review"]);
    await endpoint(subscribed, ["screening.blocked"]);
    await endpoint(subscribed, ["screening.blocked"], new Date());
    await endpoint(subscribed, ["label.created"]);
    await endpoint(quiet, ["label.created"]);
    const sql: SqlRunner = {
      ...db.screeningSql,
      prepared(name, text, params) {
        statements.push(name);
        return db.screeningSql.prepared(name, text, params);
      },
    };
    const repo = createScreeningRepository(db.prisma, sql);
    const webhooks = createWebhooksRepository(db.prisma);
    const subscriptions = createSubscriptions(
      webhooks.subscribedTypes,
      createLocalChangeFeed(),
      () => new Date(),
    );
    batches = createScreeningBatches(repo, undefined, screeningEvents(subscriptions.wants));
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A screening of `accountId` that the batch judges `decision`; resolves with its id. */
  function screen(accountId: string, user: string, decision: "allow" | "block" | "review") {
    const row: StoredScreening = {
      accountId,
      createdAt: new Date(),
      type: "signup",
      userId: user,
      email: null,
      ip: "198.51.100.7",
      country: null,
      decision,
      score: decision === "allow" ? 0 : 80,
      rules: [],
      reasons: [],
      monitored: [],
      input: { type: "signup", user_id: user },
      blocked: decision === "block",
      identities: identitiesOf(
        { type: "signup", userId: user, email: null, ip: "198.51.100.7" } as never,
        { normalizedEmail: null, ipKey: "198.51.100.7", subnetKey: null, disposable: false },
        KEY,
      ),
    };
    return batches({
      accountId,
      key: KEY,
      probes: [],
      history: null,
      judge: () => ({ row, result: (id: string) => id }),
    });
  }

  const deliveriesOf = (accountId: string) =>
    db.prisma.webhookDelivery.findMany({ where: { accountId }, include: { endpoint: true } });

  it("stores one delivery of each block and review per endpoint that wants it, none for an allow", async () => {
    const [blocked, reviewed, allowed] = await Promise.all([
      screen(subscribed, "u-block", "block"),
      screen(subscribed, "u-review", "review"),
      screen(subscribed, "u-allow", "allow"),
    ]);
    const rows = await deliveriesOf(subscribed);
    const byScreening = rows.map((d) => {
      const body = JSON.parse(d.body) as {
        id: string;
        type: string;
        data: { screening: { id: string; decision: string; user_id: string } };
      };
      expect(body.id).toBe(d.eventId);
      expect(d.eventType).toBe(body.type);
      expect(d.endpoint.disabledAt).toBeNull();
      return `${body.data.screening.id}:${body.type}:${body.data.screening.user_id}`;
    });
    expect(byScreening.sort()).toEqual(
      [
        `${blocked}:screening.blocked:u-block`,
        `${blocked}:screening.blocked:u-block`,
        `${reviewed}:screening.review:u-review`,
      ].sort(),
    );
    // One event id per event, the same for each endpoint it goes to.
    expect(new Set(rows.map((d) => d.eventId)).size).toBe(2);
    expect(byScreening.join()).not.toContain(allowed);
  });

  it("a refused batch stores nothing; each screening written alone then keeps its events", async () => {
    const before = await db.prisma.webhookDelivery.count();
    // A screening of an account that does not exist: its foreign key refuses the whole
    // statement, and each is then written alone.
    const results = await Promise.allSettled([
      screen(subscribed, "u-with-bad-neighbour", "block"),
      screen("00000000-0000-0000-0000-000000000000", "u-nobody", "block"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    const stored = await db.prisma.screening.findMany({
      where: { userId: { in: ["u-with-bad-neighbour", "u-nobody"] } },
      select: { id: true, userId: true },
    });
    expect(stored.map((s) => s.userId)).toEqual(["u-with-bad-neighbour"]);
    // Every delivery stored is of a screening stored, and the good one has its two.
    const screeningIds = (await db.prisma.webhookDelivery.findMany()).map(
      (d) => (JSON.parse(d.body) as { data: { screening: { id: string } } }).data.screening.id,
    );
    expect(screeningIds).toHaveLength(before + 2);
    const kept = await db.prisma.screening.count({ where: { id: { in: screeningIds } } });
    expect(kept).toBe(new Set(screeningIds).size);
    expect(screeningIds.filter((id) => id === stored[0]?.id)).toHaveLength(2);
  });

  it("keeps the plain statement for an account no endpoint wants screening events of", async () => {
    statements.length = 0;
    await Promise.all([screen(quiet, "q-block", "block"), screen(quiet, "q-review", "review")]);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((name) => name.includes("events"))).toEqual([]);
    expect(await db.prisma.webhookDelivery.count({ where: { accountId: quiet } })).toBe(0);
    statements.length = 0;
    await screen(subscribed, "s-block", "block");
    expect(statements.some((name) => name.includes("events"))).toBe(true);
  });
});
