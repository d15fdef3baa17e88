/**
 * Made-up session tokens cost no query: anyone can send `Authorization: Bearer x.y` or a
 * session cookie on every request, to the screening API and the collector as to the console.
 * Session lookups are counted on the real database through a Prisma client extension that the
 * app uses for all its queries.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../server/db/database.ts";
import type { PrismaClient } from "../server/db/generated/client.ts";
import { randomToken } from "../server/lib/tokens.ts";
import { DB_KINDS, openTestDatabase } from "./helpers/databases.ts";
import { type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

/** 1,000 tokens of every shape but the one Warden issues (two 32-character base32 parts). */
function madeUpTokens(): string[] {
  const base32 = randomToken();
  const shapes = [
    () => "x.y",
    () => `${randomBytes(16).toString("hex")}.${randomBytes(16).toString("hex")}`,
    () => `${base32}.${randomToken().slice(1)}`,
    () => `${base32.toUpperCase()}.${randomToken()}`,
    () => `${base32}.${randomToken()}.${randomToken()}`,
    () => `${randomBytes(24).toString("base64url")}.${randomBytes(24).toString("base64url")}`,
    () => `${"0".repeat(32)}.${"1".repeat(32)}`,
    () => `${base32}${randomToken()}`,
  ];
  return Array.from({ length: 1000 }, (_, i) => shapes[i % shapes.length]?.() ?? "");
}

describe.each(DB_KINDS)("made-up session tokens (%s)", (kind) => {
  let database: Database;
  let t: TestApp;
  let merchant: Merchant;
  let sessionQueries = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const counted = database.prisma.$extends({
      query: {
        session: {
          $allOperations({ args, query }) {
            sessionQueries += 1;
            return query(args);
          },
        },
      },
    }) as unknown as PrismaClient;
    t = await startTestApp(kind, { database: { ...database, prisma: counted } });
    merchant = await signedInMerchant(t, `made-up-sessions-${kind}@example.com`);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  it("refuses 1,000 made-up tokens, as bearers and cookies, on screen, collect and the console, without a query", async () => {
    const tokens = madeUpTokens();
    sessionQueries = 0;
    const send = (path: string, method: string, auth: Record<string, string>) =>
      fetch(`${t.baseUrl}${path}`, {
        method,
        // From our own origin, so a cookie passes the CSRF check and reaches the lookup.
        headers: { ...auth, origin: t.baseUrl, "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ type: "signup" }) : undefined,
      }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });
    const statuses = new Map<string, number>();
    for (let i = 0; i < tokens.length; i += 10) {
      const batch = tokens.slice(i, i + 10).flatMap((token) => {
        const ways: Record<string, string>[] = [
          { authorization: `Bearer ${token}` },
          { cookie: `warden_session=${token}` },
        ];
        return ways.flatMap((auth) => [
          send("/api/v1/screen", "POST", auth),
          send("/api/v1/collect", "POST", auth),
          send("/api/rules", "GET", auth),
        ]);
      });
      for (const status of await Promise.all(batch)) {
        statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
      }
    }
    // screen and the console: 401 (no key, no session); collect: 401 (no publishable key).
    expect(Object.fromEntries(statuses)).toEqual({ "401": 6000 });
    expect(sessionQueries).toBe(0);
  });

  it("still looks up a token of the issued shape: the merchant's own, and an unknown one once", async () => {
    sessionQueries = 0;
    expect((await merchant.api.json("/api/rules")).status).toBe(200);
    const lookups = sessionQueries;
    expect(lookups).toBeGreaterThan(0);
    const unknown = await fetch(`${t.baseUrl}/api/rules`, {
      headers: { authorization: `Bearer ${randomToken()}.${randomToken()}` },
    });
    expect(unknown.status).toBe(401);
    expect(sessionQueries).toBe(lookups + 1);
  });

  it("looks up no session on the API-key routes, even a token of the issued shape", async () => {
    sessionQueries = 0;
    for (const path of ["/api/v1/screen", "/api/v1/collect"]) {
      const ways: Record<string, string>[] = [
        { authorization: `Bearer ${randomToken()}.${randomToken()}` },
        { cookie: `warden_session=${randomToken()}.${randomToken()}` },
      ];
      for (const auth of ways) {
        const res = await fetch(`${t.baseUrl}${path}`, {
          method: "POST",
          headers: { ...auth, origin: t.baseUrl, "content-type": "application/json" },
          body: JSON.stringify({ type: "signup" }),
        });
        expect(res.status).toBe(401);
      }
    }
    expect(sessionQueries).toBe(0);
  });
});
