/**
 * The typed client `warden/client` against a real Warden over HTTP: a decision, input and key
 * errors thrown as typed errors, and a slow, a closed and a broken Warden answered with a
 * degraded "allow" (or thrown with onError: "throw").
 */
import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWardenClient, type ScreenAnswer, WardenError } from "warden/client";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { freePort, startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("warden/client against Warden (%s)", (kind) => {
  let t: TestApp;
  let key: string;
  let publishableKey: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const merchant = await signedInMerchant(t, `client-${kind}@example.com`);
    key = (await backendOf(t, merchant)).key;
    const publishable = await merchant.api.json<{ key: string }>("/api/api-keys", {
      body: { name: "page", kind: "publishable" },
    });
    publishableKey = publishable.body.key;
    await turnOn(merchant, "rule_entropy");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("returns Warden's typed decision over tRPC", async () => {
    const warden = createWardenClient({ url: t.baseUrl, apiKey: key, timeoutMs: 5000 });
    const calm = await warden.screen({ type: "signup", email: "jane.doe@example.com" });
    expect(calm).toMatchObject({ degraded: false, decision: "allow", reasons: [] });
    const random = await warden.screen({ type: "signup", email: "xk7qz9vw3pj2@example.com" });
    expect(random.degraded).toBe(false);
    expect(random.decision).toBe("review");
    expect(random.reasons.map((reason) => reason.rule)).toEqual(["rule_entropy"]);
    if (!random.degraded) expect(random.id).toEqual(expect.any(String));
    // The screening is Warden's own record, not something the client made up.
    const stored = await t.prisma.screening.count({ where: { id: random.id ?? "" } });
    expect(stored).toBe(1);
  });

  it("throws a BAD_REQUEST naming the field for bad input, even with onError allow", async () => {
    const warden = createWardenClient({ url: t.baseUrl, apiKey: key, timeoutMs: 5000 });
    const error = await warden.screen({ type: "signup", email: "not an email" }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(WardenError);
    expect(error).toMatchObject({
      code: "BAD_REQUEST",
      status: 400,
      issues: [{ path: "email", message: "must be an email address" }],
    });
    const unknownType = await warden.screen({ type: "sign-up" } as never).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(unknownType).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: "type" }] });
  });

  it("throws UNAUTHORIZED for a wrong key and FORBIDDEN for a publishable one", async () => {
    const wrong = createWardenClient({ url: t.baseUrl, apiKey: `${key}x`, timeoutMs: 5000 });
    await expect(wrong.screen({ type: "login" })).rejects.toMatchObject({
      name: "WardenError",
      code: "UNAUTHORIZED",
      status: 401,
    });
    expect(publishableKey).toMatch(/^wdn_pk_/);
    // A publishable key is a known key used in the wrong place: 403, thrown, never degraded.
    const publishable = createWardenClient({ url: t.baseUrl, apiKey: publishableKey });
    await expect(publishable.screen({ type: "login" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      status: 403,
    });
  });
});

describe("warden/client when Warden does not answer", () => {
  const sockets = new Set<Socket>();
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    // A real TCP server that accepts and never answers: a hung Warden.
    silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  const key = "wdn_sk_doesnotmatterhere";

  it("answers a degraded allow after timeoutMs from a Warden that hangs", async () => {
    const warden = createWardenClient({ url: silentUrl, apiKey: key, timeoutMs: 150 });
    const started = performance.now();
    const answer: ScreenAnswer = await warden.screen({ type: "signup" });
    const took = performance.now() - started;
    expect(answer).toMatchObject({
      degraded: true,
      decision: "allow",
      reasons: [],
      error: { code: "TIMEOUT" },
    });
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(2000);
  });

  it("answers a degraded allow when nothing listens (outage)", async () => {
    const port = await freePort();
    const warden = createWardenClient({ url: `http://127.0.0.1:${port}`, apiKey: key });
    const answer = await warden.screen({ type: "signup" });
    expect(answer).toMatchObject({
      degraded: true,
      decision: "allow",
      error: { code: "UNAVAILABLE" },
    });
  });

  it("answers a degraded allow for a 502 from a proxy in front of Warden", async () => {
    const proxy = createHttpServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const port = (proxy.address() as { port: number }).port;
      const warden = createWardenClient({ url: `http://127.0.0.1:${port}`, apiKey: key });
      const answer = await warden.screen({ type: "signup" });
      expect(answer).toMatchObject({ degraded: true, error: { code: "UNAVAILABLE" } });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("tells onDegraded of every outage, and a throwing onDegraded changes nothing", async () => {
    const events: { code: string; status: number | null }[] = [];
    const proxy = createHttpServer((_request, response) => {
      response.writeHead(500, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const port = (proxy.address() as { port: number }).port;
      const broken = createWardenClient({
        url: `http://127.0.0.1:${port}`,
        apiKey: key,
        onDegraded: (event) => {
          events.push({ code: event.code, status: event.status });
          throw new Error("the pager is down too");
        },
      });
      expect(await broken.screen({ type: "signup" })).toMatchObject({ degraded: true });
      const hung = createWardenClient({
        url: silentUrl,
        apiKey: key,
        timeoutMs: 100,
        onError: "throw",
        onDegraded: (event) => events.push({ code: event.code, status: event.status }),
      });
      await expect(hung.screen({ type: "signup" })).rejects.toMatchObject({ code: "TIMEOUT" });
      expect(events).toEqual([
        { code: "UNAVAILABLE", status: 500 },
        { code: "TIMEOUT", status: null },
      ]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('throws TIMEOUT and UNAVAILABLE with onError: "throw"', async () => {
    const hung = createWardenClient({
      url: silentUrl,
      apiKey: key,
      timeoutMs: 100,
      onError: "throw",
    });
    await expect(hung.screen({ type: "signup" })).rejects.toMatchObject({
      name: "WardenError",
      code: "TIMEOUT",
      status: null,
    });
    const port = await freePort();
    const closed = createWardenClient({
      url: `http://127.0.0.1:${port}`,
      apiKey: key,
      onError: "throw",
    });
    await expect(closed.screen({ type: "signup" })).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("refuses options that cannot work, at creation", () => {
    expect(() => createWardenClient({ url: "localhost:3000", apiKey: key })).toThrow(/url/);
    expect(() => createWardenClient({ url: silentUrl, apiKey: "" })).toThrow(/apiKey/);
    expect(() => createWardenClient({ url: silentUrl, apiKey: key, timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });
});
