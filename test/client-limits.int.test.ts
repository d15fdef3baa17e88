/**
 * Per-email and per-IP limits hold against what an attacker controls: how many logins ride in
 * one batch or run at once, and what X-Forwarded-For says.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../shared/messages.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";
import { withTestApp } from "./with-test-app.ts";

const PASSWORD = "correct horse battery";
const WINDOW_PASSED = 16 * 60_000;

type BatchItem = { result?: { data: unknown }; error?: { data: { httpStatus: number } } };

describe.each(DB_KINDS)("login attempts on %s", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  /** One HTTP request carrying a login per password, in order. */
  async function batchLogin(client: TestClient, email: string, passwords: string[]) {
    const paths = passwords.map(() => "auth.login").join(",");
    const input = Object.fromEntries(passwords.map((password, i) => [i, { email, password }]));
    const response = await client.request(`/trpc/${paths}?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    return { status: response.status, body: (await response.json()) as BatchItem[] | object };
  }

  const statuses = (items: BatchItem[]) => items.map((item) => item.error?.data.httpStatus ?? 200);

  it("refuses a batch of 20 logins outright", async () => {
    const email = "batch20@example.com";
    await signedInMerchant(t, email);
    t.clock.advance(WINDOW_PASSED);
    const client = new TestClient(t.baseUrl);
    const passwords = [...Array(19).fill("wrong password"), PASSWORD];
    const answer = await batchLogin(client, email, passwords);
    expect(answer.status).toBe(400);
    expect(client.cookies.has("warden_session")).toBe(false);
  });

  it("counts every login of a batch before checking its password: five get through, then even the right one is 429", async () => {
    const email = "batch10@example.com";
    await signedInMerchant(t, email);
    t.clock.advance(WINDOW_PASSED);
    const client = new TestClient(t.baseUrl);
    const first = (await batchLogin(client, email, Array(10).fill("wrong password")))
      .body as BatchItem[];
    // Which five reach argon2 depends on scheduling; that only five do, does not.
    expect(statuses(first).filter((s) => s === 401)).toHaveLength(5);
    expect(statuses(first).filter((s) => s === 429)).toHaveLength(5);
    const second = (await batchLogin(client, email, [...Array(9).fill("wrong password"), PASSWORD]))
      .body as BatchItem[];
    expect(statuses(second)).toEqual(Array(10).fill(429));
    expect(client.cookies.has("warden_session")).toBe(false);
    const later = await new TestClient(t.baseUrl).mutate("auth.login", {
      email,
      password: PASSWORD,
    });
    expect(later).toMatchObject({ ok: false, status: 429 });
    if (!later.ok) expect(later.error.message).toBe(MESSAGES.tooManyLoginFailures);
  });

  it("counts 20 parallel logins atomically: five reach the password, the right one after them is locked out", async () => {
    const email = "parallel@example.com";
    await signedInMerchant(t, email);
    t.clock.advance(WINDOW_PASSED);
    const attacker = () => new TestClient(t.baseUrl);
    const wrong = await Promise.all(
      Array.from({ length: 19 }, () =>
        attacker().mutate("auth.login", { email, password: "wrong password" }),
      ),
    );
    expect(wrong.filter((r) => r.status === 401)).toHaveLength(5);
    expect(wrong.filter((r) => r.status === 429)).toHaveLength(14);
    const right = attacker();
    expect(await right.mutate("auth.login", { email, password: PASSWORD })).toMatchObject({
      ok: false,
      status: 429,
    });
    expect(right.cookies.has("warden_session")).toBe(false);
  });

  it("starts the count again after a successful login", async () => {
    const email = "reset-count@example.com";
    await signedInMerchant(t, email);
    t.clock.advance(WINDOW_PASSED);
    const c = new TestClient(t.baseUrl);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) {
        expect(await c.mutate("auth.login", { email, password: "wrong password" })).toMatchObject({
          status: 401,
        });
      }
      expect((await c.mutate("auth.login", { email, password: PASSWORD })).ok).toBe(true);
    }
  });
});

describe("TRUST_PROXY", () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  /** Eleven signups from one real client behind one proxy, each with a freshly forged XFF. */
  async function signupsWithForgedForwardedFor(app: TestApp, proxyAppends: string | null) {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const forged = `198.51.100.${i + 1}`;
      const xff = proxyAppends ? `${forged}, ${proxyAppends}` : forged;
      const response = await app.app.inject({
        method: "POST",
        url: "/trpc/auth.signup",
        remoteAddress: "127.0.0.1",
        headers: { "content-type": "application/json", "x-forwarded-for": xff },
        payload: { email: `xff${i}-${Math.random()}@example.com`, password: PASSWORD },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it.each([
    ["a hop count", "1", "203.0.113.7"],
    ["the proxy's address", "127.0.0.1", "203.0.113.7"],
    ["an address that is not the caller's: XFF is ignored", "10.0.0.1", null],
  ])(
    "with %s, a forged X-Forwarded-For does not escape the per-IP signup limit",
    async (_case, trust, appended) => {
      await t?.close();
      t = await startTestApp("embedded", { env: { TRUST_PROXY: trust } });
      const statuses = await signupsWithForgedForwardedFor(t, appended);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
    },
  );
});
