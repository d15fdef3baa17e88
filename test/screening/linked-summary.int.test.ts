/**
 * The linked-accounts summary the screening path stores with each screening (decision 023),
 * through real HTTP on both databases: accounts sharing a card are linked and counted as new
 * this hour; a device shared by more than 25 accounts is a hub and links nobody, however many
 * more share it (the statement returns at most 27 end users per identity).
 */
import { describe, expect, it } from "vitest";
import type { ScreenInput } from "../../shared/schemas/screening.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const MINUTE = 60_000;

describe.each(DB_KINDS)("linked-accounts summary on the screening path (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  async function backendFor(name: string): Promise<Backend> {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    await turnOn(merchant, "rule_farming");
    return backendOf(t, merchant);
  }

  async function screen(backend: Backend, event: ScreenInput) {
    clock.advance(MINUTE);
    return backend.decide({ ip: "81.2.69.161", ...event });
  }

  async function linkedOf(backend: Backend, id: string) {
    const res = await backend.client.json<{ linked: unknown }>(`/api/v1/screenings/${id}`);
    expect(res.status).toBe(200);
    return res.body.linked;
  }

  it("card_farm: the fourth account on one card is linked to three new this hour, and blocked", async () => {
    const backend = await backendFor("card");
    for (const n of [1, 2, 3]) {
      await screen(backend, { type: "signup", user_id: `c${n}`, card_fingerprint: "fp_farm" });
    }
    const fourth = await screen(backend, {
      type: "signup",
      user_id: "c4",
      card_fingerprint: "fp_farm",
    });
    expect(fourth.decision).toBe("block");
    expect(await linkedOf(backend, fourth.id)).toEqual({
      accounts: 3,
      first_seen_last_hour: 3,
      first_seen_last_day: 3,
      bad: 0,
      through: [{ kind: "card", accounts: 3 }],
      hubs: [],
      // Its first screening; no device was sent.
      account_first_seen: null,
      device_first_seen: null,
    });
  });

  it("a returning account on a device first seen earlier: both ages are stored", async () => {
    const backend = await backendFor("ages");
    const firstAt = clock.now().getTime() + MINUTE;
    await screen(backend, { type: "login", user_id: "old", device_id: "dev-old", email: "o@x.io" });
    clock.advance(10 * MINUTE);
    const again = await screen(backend, {
      type: "signup",
      user_id: "old",
      device_id: "dev-old",
      email: "o@x.io",
    });
    const linked = (await linkedOf(backend, again.id)) as Record<string, unknown>;
    expect(linked.account_first_seen).toBe(new Date(firstAt).toISOString());
    expect(linked.device_first_seen).toBe(new Date(firstAt).toISOString());
    expect(linked.accounts).toBe(0);
  });

  it("a shop's tablet shared by 30 accounts is a hub: it links nobody", async () => {
    const backend = await backendFor("tablet");
    for (let n = 0; n < 30; n++) {
      await screen(backend, { type: "login", user_id: `t${n}`, device_id: "dev-tablet" });
    }
    const next = await screen(backend, {
      type: "signup",
      user_id: "t-new",
      device_id: "dev-tablet",
    });
    const linked = (await linkedOf(backend, next.id)) as {
      accounts: number;
      hubs: { kind: string; accounts: number }[];
    };
    expect(linked.accounts).toBe(0);
    expect(linked.hubs).toHaveLength(1);
    expect(linked.hubs[0]?.kind).toBe("device");
    expect(linked.hubs[0]?.accounts).toBeGreaterThan(25);
    // Read no further than it takes to know: at most 27 end users come back for one identity.
    expect(linked.hubs[0]?.accounts).toBeLessThanOrEqual(27);
    // The device's own limit still applies (30 accounts on it); no reason names a link.
    expect(next.reasons.map((r) => r.message)).toEqual([
      "this device already has 30 accounts in 30 days (limit 3)",
    ]);
  });
});
