/**
 * The delivery worker's claim on both databases: fair across accounts and endpoints. An
 * account with thousands of older due deliveries used to fill every claim (ORDER BY
 * nextAttemptAt), so another account's event waited behind all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { createWebhooksRepository } from "../../server/modules/webhooks/webhooks.repository.ts";
import { DB_KINDS, openTestDatabase } from "../helpers/databases.ts";

const LIMITS = { limit: 10, perEndpoint: 2, perAccount: 3 };
const NOW = new Date("2026-06-01T12:00:00Z");
const LEASE = new Date(NOW.getTime() + 60_000);

describe.each(DB_KINDS)("claiming due webhook deliveries (%s)", (kind) => {
  let db: Database;
  let repo: ReturnType<typeof createWebhooksRepository>;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    repo = createWebhooksRepository(db.prisma);
  });
  afterAll(async () => {
    await db?.close();
  });

  async function account(endpoints: number, disabled = false) {
    const { id } = await db.prisma.account.create({ data: {} });
    const ids: string[] = [];
    for (let i = 0; i < endpoints; i++) {
      const endpoint = await db.prisma.webhookEndpoint.create({
        data: {
          accountId: id,
          url: `https://hooks.example.com/${i}`,
          events: ["screening.review"],
          secretCipher: "unused",
          disabledAt: disabled ? NOW : null,
        },
      });
      ids.push(endpoint.id);
    }
    return { id, endpoints: ids };
  }

  async function due(accountId: string, endpointId: string, count: number, ageMs: number) {
    await db.prisma.webhookDelivery.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        accountId,
        endpointId,
        eventId: `evt_${endpointId}_${i}`,
        eventType: "screening.review",
        body: "{}",
        nextAttemptAt: new Date(NOW.getTime() - ageMs + i),
      })),
    });
  }

  it("gives every account and endpoint its turn, counts what is in flight, and skips disabled endpoints", async () => {
    const noisy = await account(2);
    const quiet = await account(1);
    const off = await account(1, true);
    // Thousands of older deliveries on the noisy account's first endpoint.
    await due(noisy.id, noisy.endpoints[0] as string, 3000, 3_600_000);
    await due(noisy.id, noisy.endpoints[1] as string, 5, 3_000_000);
    await due(quiet.id, quiet.endpoints[0] as string, 1, 1000);
    await due(off.id, off.endpoints[0] as string, 5, 7_200_000);

    const first = await repo.claimDue(NOW, LEASE, LIMITS);
    const per = (rows: { endpointId: string }[], endpointId: string | undefined) =>
      rows.filter((row) => row.endpointId === endpointId).length;
    expect(per(first, quiet.endpoints[0])).toBe(1);
    expect(per(first, noisy.endpoints[0])).toBe(LIMITS.perEndpoint);
    expect(per(first, noisy.endpoints[1])).toBe(LIMITS.perAccount - LIMITS.perEndpoint);
    expect(per(first, off.endpoints[0])).toBe(0);
    expect(first).toHaveLength(1 + LIMITS.perAccount);

    // All in flight (leased): the noisy account is at its limit, the quiet one has nothing due.
    expect(await repo.claimDue(NOW, LEASE, LIMITS)).toEqual([]);

    // One noisy attempt ends: exactly one more of that account's, from an endpoint with room.
    const done = first.find((row) => row.endpointId === noisy.endpoints[0]);
    await repo.record(done?.id as string, {
      status: "delivered",
      attempts: 1,
      log: [],
      nextAttemptAt: NOW,
      deliveredAt: NOW,
    });
    const next = await repo.claimDue(NOW, LEASE, LIMITS);
    expect(next.map((row) => row.endpointId)).toEqual([noisy.endpoints[0]]);

    // Leases that expired (a crashed worker) count no more.
    const later = new Date(LEASE.getTime() + 1);
    const again = await repo.claimDue(later, new Date(later.getTime() + 60_000), LIMITS);
    expect(again).toHaveLength(1 + LIMITS.perAccount);
  });
});
