/**
 * Warden under faults, with real processes on one PostgreSQL: a shuffled, duplicated webhook
 * storm through two instances while database connections are killed and one instance is
 * killed -9; Stripe failing half the refund calls; a kill -9 in the middle of an import.
 * Figures are printed so they can be quoted. Needs TEST_DATABASE_URL.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../scripts/lib/seeded-random.ts";
import { type StripeStandIn, startStripeStandIn } from "../../scripts/lib/stripe-stand-in.ts";
import { DEFAULT_RULES } from "../../shared/schemas/rules.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { TestClient } from "../helpers/http-client.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { startSmtpCapture } from "../helpers/smtp.ts";
import { connectStripe } from "../helpers/stripe-webhooks.ts";
import { deliverAll, post, shuffle, stormEvents } from "./storm.ts";
import { freshPostgres, merchantOn, startWarden, type WardenProcess } from "./warden-process.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const STORM_EVENTS = Number(process.env.FAULT_STORM_EVENTS ?? 5000);
const REFUNDS = 60;
const IMPORT_CHARGES = 1500;

describe.skipIf(!ADMIN_URL)("Warden under faults on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let stripe: StripeStandIn;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let a: WardenProcess;
  let b: WardenProcess;
  const start = (port?: number) =>
    startWarden({ databaseUrl: db.url, stripeUrl: stripe.url, smtpUrl: smtp.url, port });
  const merchant = (email: string) => merchantOn(a, smtp, db.prisma, email);
  const as = (m: Merchant, w: WardenProcess) =>
    new TestClient(w.baseUrl, { authorization: `Bearer ${m.token}` });

  beforeAll(async () => {
    db = await freshPostgres(ADMIN_URL as string);
    stripe = await startStripeStandIn();
    smtp = await startSmtpCapture();
    a = await start();
    b = await start();
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await stripe?.close();
    await smtp?.close();
    await db?.drop();
  });

  const rowsOf = async (accountId: string) => {
    const rows = await db.prisma.transaction.findMany({
      where: { accountId },
      orderBy: { chargeId: "asc" },
      omit: { accountId: true, updatedAt: true },
    });
    return new Map(rows.map((row) => [row.chargeId, JSON.stringify(row)]));
  };

  it("a shuffled, duplicated storm through two instances, with connections and one instance killed, ends as one ordered delivery", async () => {
    const ordered = await merchant("storm-ordered@example.com");
    const stormed = await merchant("storm-shuffled@example.com");
    const orderedHook = await connectStripe(ordered);
    const stormHook = await connectStripe(stormed);
    const rand = seededRandom(8);
    const perCharge = stormEvents(STORM_EVENTS, rand, "storm");
    const events = perCharge.flat();

    // The reference: each charge's events in order (charges side by side), to one instance.
    const began = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async (_, lane) => {
        for (let i = lane; i < perCharge.length; i += 16) {
          for (const event of perCharge[i] as Stripe.Event[]) {
            const status = await post(
              a.baseUrl,
              orderedHook.path,
              event,
              orderedHook.webhookSecret,
            );
            expect(status).toBe(200);
          }
        }
      }),
    );
    const orderedMs = Date.now() - began;

    // The storm: 10% duplicated, shuffled, 32 at a time, alternating instances.
    const duplicates = events.filter(() => rand() < 0.1);
    const storm = shuffle([...events, ...duplicates], rand);
    let killed = 0;
    let crashedAt = -1;
    let faultsDone = Promise.resolve();
    const faults = new Map<number, () => Promise<void>>([
      [
        Math.floor(storm.length * 0.25),
        async () => {
          killed += await db.killConnections();
        },
      ],
      [
        Math.floor(storm.length * 0.5),
        async () => {
          crashedAt = storm.length * 0.5;
          const port = a.port;
          await a.crash();
          a = await start(port);
        },
      ],
      [
        Math.floor(storm.length * 0.75),
        async () => {
          killed += await db.killConnections();
        },
      ],
    ]);
    const stormBegan = Date.now();
    const result = await deliverAll(
      storm.map((event, i) => () => {
        const target = i % 2 === 0 ? a : b;
        return post(target.baseUrl, stormHook.path, event, stormHook.webhookSecret);
      }),
      32,
      async (done) => {
        const fault = faults.get(done);
        if (fault) {
          faults.delete(done);
          // One fault at a time: while A restarts, deliveries to it fail fast and the count
          // races on, so the last kill would otherwise land in A's start-up, which is a
          // different fault (a start that cannot reach its database exits, see
          // database.int.test.ts for the part that must not crash).
          faultsDone = faultsDone.then(fault);
          await faultsDone;
        }
      },
    );
    const stormMs = Date.now() - stormBegan;

    const expected = await rowsOf(ordered.accountId);
    const actual = await rowsOf(stormed.accountId);
    let mismatches = 0;
    for (const [chargeId, row] of expected) if (actual.get(chargeId) !== row) mismatches += 1;
    mismatches += [...actual.keys()].filter((id) => !expected.has(id)).length;
    const stored = await db.prisma.stripeEvent.count({ where: { accountId: stormed.accountId } });
    console.log(
      `[faults] storm: ${events.length} events (+${duplicates.length} duplicates) over ${perCharge.length} charges, 32 at a time via 2 instances; ` +
        `${killed} PostgreSQL connections killed, instance A killed -9 at delivery ${crashedAt}; ` +
        `${result.retried} deliveries retried; events stored ${stored}/${events.length}; ` +
        `final-state mismatches ${mismatches}; ordered ${orderedMs} ms, storm ${stormMs} ms`,
    );
    expect(crashedAt).toBeGreaterThan(0);
    expect(killed).toBeGreaterThan(0);
    expect(stored).toBe(events.length);
    expect(expected.size).toBe(perCharge.length);
    expect(mismatches).toBe(0);
  }, 240_000);

  it("Stripe failing half the refund calls, events to both instances: each refund once, one key", async () => {
    const m = await merchant("refunds@example.com");
    const hook = await connectStripe(m);
    const rules = await m.api.json("/api/rules", {
      method: "PUT",
      body: { ...DEFAULT_RULES, rule_high_risk: true },
    });
    expect(rules.status).toBe(200);
    // The first call for each refund fails: a 500, or (every other one) the refund is made
    // but the answer is lost, as on a timeout.
    const seen = new Map<string, number>();
    stripe.setFault((call) => {
      if (call.path !== "/v1/refunds" || !call.idempotencyKey) return null;
      const n = seen.get(call.idempotencyKey) ?? 0;
      seen.set(call.idempotencyKey, n + 1);
      if (n > 0) return null;
      return seen.size % 2 === 0 ? { drop: true } : { status: 500, message: "Stripe fault" };
    });
    const charges = Array.from({ length: REFUNDS }, (_, i) =>
      buildCharge({ id: `ch_refund${String(i).padStart(5, "0")}`, riskScore: 95 }),
    );
    const jobs = charges.flatMap((charge) => {
      const event = buildEvent("charge.succeeded", charge);
      return [a, b].map((w) => () => post(w.baseUrl, hook.path, event, hook.webhookSecret));
    });
    await deliverAll(jobs, 32);
    const done = () =>
      db.prisma.stripeAction.count({ where: { accountId: m.accountId, status: "done" } });
    await expect.poll(done, { timeout: 60_000, interval: 500 }).toBe(REFUNDS);
    stripe.setFault(() => null);

    const calls = stripe.callsTo("POST", "/v1/refunds");
    const made = charges.map((c) => stripe.refundsMade.get(c.id) ?? 0);
    const keys = new Set(calls.map((c) => c.idempotencyKey));
    console.log(
      `[faults] refunds: expected ${REFUNDS}, made ${made.reduce((s, n) => s + n, 0)} ` +
        `(${made.filter((n) => n !== 1).length} charges not refunded exactly once); ` +
        `${calls.length} refund calls, ${REFUNDS} failed (500 or answer lost); ${keys.size} idempotency keys`,
    );
    expect(made.every((n) => n === 1)).toBe(true);
    expect(keys).toEqual(new Set(charges.map((c) => `warden:${c.id}:refund`)));
    expect(await db.prisma.stripeAction.count({ where: { accountId: m.accountId } })).toBe(REFUNDS);
  }, 120_000);

  it("login throttles are shared by the two instances", async () => {
    const m = await merchant("throttle@example.com");
    for (let i = 0; i < 5; i++) {
      const w = i % 2 === 0 ? a : b;
      const wrong = await new TestClient(w.baseUrl).mutate("auth.login", {
        email: m.email,
        password: "wrong password here",
      });
      expect(wrong).toMatchObject({ ok: false });
    }
    for (const w of [a, b]) {
      const right = await new TestClient(w.baseUrl).mutate("auth.login", {
        email: m.email,
        password: m.password,
      });
      expect(right).toMatchObject({ ok: false, status: 429 });
    }
  });

  it("kill -9 during an import: after a restart the next import replaces it and the state is whole", async () => {
    const m = await merchant("import@example.com");
    await connectStripe(m);
    const nowSec = Math.floor(Date.now() / 1000);
    for (let i = 0; i < IMPORT_CHARGES; i++) {
      const charge = buildCharge({
        id: `ch_import${String(i).padStart(6, "0")}`,
        created: nowSec - 60 - i * 600,
      });
      stripe.charges.set(charge.id, charge);
    }
    stripe.setFault((call) => (call.path === "/v1/charges" ? { delayMs: 200 } : null));
    type Job = { id: string; status: string; imported: number };
    const first = await as(m, b).mutate<Job>("stripe.startImport", { days: 90 });
    expect(first).toMatchObject({ ok: true, data: { status: "running" } });
    const firstId = first.ok ? first.data.id : "";
    await expect
      .poll(
        async () =>
          (await db.prisma.importJob.findUniqueOrThrow({ where: { id: firstId } })).imported,
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBeGreaterThanOrEqual(200);
    const port = b.port;
    await b.crash();
    const atCrash = await db.prisma.importJob.findUniqueOrThrow({ where: { id: firstId } });
    expect(atCrash.status).toBe("running");
    b = await start(port);
    stripe.setFault(() => null);

    // Nothing renews a dead job's heartbeat: here its minute passes at once.
    await db.prisma.importJob.update({
      where: { id: firstId },
      data: { heartbeatAt: new Date(Date.now() - 120_000) },
    });
    const again = await as(m, b).mutate<Job>("stripe.startImport", { days: 90 });
    expect(again).toMatchObject({ ok: true, data: { status: "running" } });
    expect(again.ok && again.data.id).not.toBe(firstId);
    await expect
      .poll(async () => await as(m, a).query<Job>("stripe.importStatus"), { timeout: 60_000 })
      .toMatchObject({ data: { status: "done", imported: IMPORT_CHARGES } });
    const rows = await db.prisma.transaction.count({ where: { accountId: m.accountId } });
    const dead = await db.prisma.importJob.findUniqueOrThrow({ where: { id: firstId } });
    console.log(
      `[faults] import: killed -9 after ${atCrash.imported} of ${IMPORT_CHARGES} charges; restarted import ended ${rows} rows; dead job now ${dead.status}`,
    );
    expect(rows).toBe(IMPORT_CHARGES);
    expect(dead.status).toBe("failed");
  }, 120_000);
});
