/**
 * What a hostile or broken client sends at the HTTP layer: bodies of the wrong type or size,
 * malformed JSON, oversized batches, forged cursors. Each must be a 4xx, never a 500.
 */
import { request as httpRequest } from "node:http";
import { Readable, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

const MB = 1024 * 1024;

/** POSTs `totalBytes` from a lazy stream; resolves with the status and how much had been sent. */
function streamPost(url: string, contentType: string, totalBytes: number) {
  return new Promise<{ status: number; sentBeforeAnswer: number; ms: number }>(
    (resolve, reject) => {
      const started = Date.now();
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, "a");
      const body = new Readable({
        read() {
          if (sent >= totalBytes) return this.push(null);
          sent += chunk.length;
          this.push(chunk);
        },
      });
      const req = httpRequest(url, {
        method: "POST",
        headers: { "content-type": contentType, "content-length": String(totalBytes) },
      });
      req.on("response", (res) => {
        resolve({ status: res.statusCode ?? 0, sentBeforeAnswer: sent, ms: Date.now() - started });
        res.resume();
        body.destroy();
      });
      // The server may close the socket while we still write: expected once it has answered.
      req.on("error", (error) => reject(error));
      body.pipe(req);
    },
  );
}

describe.each(DB_KINDS)("HTTP limits on %s", (kind) => {
  let t: TestApp;
  const errorLines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of chunk.toString().split("\n")) {
          if (line && JSON.parse(line).level >= 50) errorLines.push(line);
        }
        done();
      },
    });
    t = await startTestApp(kind, { env: { LOG_LEVEL: "info" }, logStream: sink });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a 200 MB multipart body to /trpc with 415 before reading it", async () => {
    const answer = await streamPost(
      `${t.baseUrl}/trpc/auth.login`,
      "multipart/form-data; boundary=x",
      200 * MB,
    );
    expect(answer.status).toBe(415);
    // Answered long before the body could have been read whole.
    expect(answer.sentBeforeAnswer).toBeLessThan(50 * MB);
    expect(await (await fetch(`${t.baseUrl}/healthz`)).json()).toMatchObject({ status: "ok" });
  });

  it.each(["text/plain", "application/octet-stream", "application/x-www-form-urlencoded"])(
    "refuses a %s body to /trpc with 415",
    async (type) => {
      const response = await fetch(`${t.baseUrl}/trpc/auth.login`, {
        method: "POST",
        headers: { "content-type": type },
        body: "email=a@b.c&password=x",
      });
      expect(response.status).toBe(415);
    },
  );

  it("applies the 1 MiB body limit to tRPC JSON: 413", async () => {
    const response = await fetch(`${t.baseUrl}/trpc/auth.login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", password: "x".repeat(2 * MB) }),
    });
    expect(response.status).toBe(413);
  });

  it.each([
    ["an unclosed object", "{"],
    ["a trailing comma", '{"email":"a@example.com",}'],
    ["bare words", "hello"],
  ])("answers %s to a tRPC path with 400 and logs no error", async (_case, body) => {
    const before = errorLines.length;
    const response = await fetch(`${t.baseUrl}/trpc/auth.login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    const query = await fetch(`${t.baseUrl}/trpc/auth.me?input=${encodeURIComponent(body)}`);
    expect(query.status).toBe(400);
    expect(errorLines.slice(before)).toEqual([]);
  });

  it("answers an empty JSON body to a procedure that needs input with 400, and runs one that needs none", async () => {
    const post = (path: string) =>
      fetch(`${t.baseUrl}/trpc/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "",
      });
    expect((await post("auth.signup")).status).toBe(400);
    expect((await post("auth.logout")).status).toBe(200);
  });

  it("answers a 5 MB JSON body to PUT /api/rules with 413", async () => {
    const merchant = await signedInMerchant(t, "big-body@example.com");
    const response = await merchant.api.request("/api/rules", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rule_high_risk: true, padding: "x".repeat(5 * MB) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("refuses a tRPC batch of more than 10 calls with 400, and runs one of 10", async () => {
    const client = new TestClient(t.baseUrl);
    const batch = (n: number) =>
      client.request(`/trpc/${Array(n).fill("waitlist.links").join(",")}?batch=1&input={}`);
    expect((await batch(11)).status).toBe(400);
    const ten = await batch(10);
    expect(ten.status).toBe(200);
    expect(await ten.json()).toHaveLength(10);
  });

  it("answers a dashboard cursor with a 12-digit time with 400, not 500", async () => {
    const merchant = await signedInMerchant(t, "cursor@example.com");
    const cursor = Buffer.from("999999999999:ch_1").toString("base64url");
    const page = await merchant.browser.query("dashboard.list", { cursor });
    expect(page).toMatchObject({ ok: false, status: 400 });
  });
});
