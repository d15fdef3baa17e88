/**
 * A screening's decision event is stored with the screening (decision 014): a real Warden
 * process on PostgreSQL, an endpoint subscribed to screening.blocked, screenings answered
 * block, and the process killed (SIGKILL, as kill -9) right after the first batch holding a
 * block commits, before anyone is answered. It is the test fault hook
 * WARDEN_FAULT_CRASH_AFTER_SCREENING_COMMIT (screening-batches.ts) that picks that moment,
 * so the window an event stored after the commit fell into is hit every time, not by luck.
 * After a restart every blocked screening stored has exactly one stored event, and it is
 * delivered. Needs TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { turnOn } from "../helpers/screening.ts";
import { startSmtpCapture } from "../helpers/smtp.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";
import {
  freshPostgres,
  merchantOn,
  screen,
  startWarden,
  UA,
  type WardenProcess,
} from "./warden-process.ts";

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const CRASH_HOOK = "WARDEN_FAULT_CRASH_AFTER_SCREENING_COMMIT";
/** Screenings sent at once from one device after the first: each a new user, so blocked. */
const AT_ONCE = 12;

/** Resolves once nothing answers on the process's port any more. */
async function gone(w: WardenProcess) {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${w.baseUrl}/healthz`).then(
      () => true,
      () => false,
    );
    if (!up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("Warden did not die");
}

describe.skipIf(!ADMIN_URL)("decision events across a crash, on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let restarted: WardenProcess | undefined;

  beforeAll(async () => {
    db = await freshPostgres(ADMIN_URL as string);
    smtp = await startSmtpCapture();
    receiver = await startWebhookReceiver();
  }, 30_000);
  afterAll(async () => {
    delete process.env[CRASH_HOOK];
    await restarted?.stop();
    await receiver?.close();
    await smtp?.close();
    await db?.drop();
  });

  it("stores every blocked screening's event with it: killed after the commit, delivered after the restart", async () => {
    // The instances inherit this env: the receiver is on loopback.
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    process.env[CRASH_HOOK] = "1";
    const start = () =>
      startWarden({ databaseUrl: db.url, stripeUrl: "http://127.0.0.1:9", smtpUrl: smtp.url });
    const doomed = await start();
    const m = await merchantOn(doomed, smtp, db.prisma, "crash-events@example.com");
    await turnOn(m, "rule_device_fingerprint_reuse");
    const settings = await m.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_device_fingerprint_reuse: { max_users_per_device: 1 } },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const endpoint = await m.browser.mutate("webhooks.createEndpoint", {
      url: receiver.url,
      events: ["screening.blocked"],
    });
    expect(endpoint, JSON.stringify(endpoint)).toMatchObject({ ok: true });
    const created = await m.api.json<{ key: string }>("/api/api-keys", { body: { name: "be" } });
    expect(created.status).toBe(200);
    const key = created.body.key;

    // The device's first user is allowed (no block in its batch: the process lives on).
    const first = await screen(doomed, key, {
      type: "signup",
      user_id: "crash-user-0",
      user_agent: UA,
      device_id: "crash-device",
    });
    expect(first).toMatchObject({ status: 200, body: { decision: "allow" } });
    // Every later user on the device is blocked; the batch holding the first block commits,
    // and the process dies before answering any of them.
    const answers = await Promise.allSettled(
      Array.from({ length: AT_ONCE }, (_, i) =>
        screen(doomed, key, {
          type: "signup",
          user_id: `crash-user-${i + 1}`,
          user_agent: UA,
          device_id: "crash-device",
        }),
      ),
    );
    await gone(doomed);
    await doomed.crash(); // already dead: marks the exit as expected
    expect(answers.filter((a) => a.status === "fulfilled")).toEqual([]);

    const blocked = await db.prisma.screening.findMany({
      where: { accountId: m.accountId, decision: "block" },
      select: { id: true },
    });
    const deliveries = await db.prisma.webhookDelivery.findMany({
      where: { accountId: m.accountId, eventType: "screening.blocked" },
      select: { body: true, eventId: true },
    });
    const eventsOf = new Map<string, number>();
    for (const d of deliveries) {
      const id = (JSON.parse(d.body) as { data: { screening: { id: string } } }).data.screening.id;
      eventsOf.set(id, (eventsOf.get(id) ?? 0) + 1);
    }
    console.log(
      `[faults] decision events: killed after the first commit holding a block: ${blocked.length} blocked screening(s) stored, ${deliveries.length} event(s) stored`,
    );
    // The batch with the block committed before the kill: at least one is stored.
    expect(blocked.length).toBeGreaterThanOrEqual(1);
    expect(blocked.map((s) => [s.id, eventsOf.get(s.id) ?? 0])).toEqual(
      blocked.map((s) => [s.id, 1]),
    );
    // No event without its screening either.
    expect([...eventsOf.keys()].sort()).toEqual(blocked.map((s) => s.id).sort());

    delete process.env[CRASH_HOOK];
    restarted = await start();
    await expect
      .poll(
        () =>
          receiver
            .events()
            .map((e) => (e.data.screening as { id: string }).id)
            .sort(),
        {
          timeout: 30_000,
        },
      )
      .toEqual(blocked.map((s) => s.id).sort());
    expect(receiver.types().every((type) => type === "screening.blocked")).toBe(true);
  }, 120_000);
});
