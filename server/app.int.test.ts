import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../test/helpers/databases.ts";
import { TestClient } from "../test/helpers/http-client.ts";
import { startTestApp, type TestApp } from "../test/helpers/test-app.ts";
import { INTERNAL_MESSAGE } from "./transport/errors.ts";

describe.each(DB_KINDS)("HTTP surface on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers /healthz with 200 while the database answers", async () => {
    const res = await new TestClient(t.baseUrl).json("/healthz");
    expect(res).toMatchObject({ status: 200, body: { status: "ok", database: kind } });
  });

  it("gives unknown /api paths a 404 JSON body", async () => {
    const res = await new TestClient(t.baseUrl).json("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { code: "NOT_FOUND", message: "No route for GET /api/no-such-thing" },
    });
  });

  it("answers invalid REST input with 400 naming the field", async () => {
    const res = await new TestClient(t.baseUrl, {}).json<{ error: { issues: { path: string }[] } }>(
      "/api/auth/login",
      { body: { email: "not-an-email", password: "whatever" } },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0]?.path).toBe("email");
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const res = await fetch(`${t.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
  });
});

describe("failures", () => {
  it("answers 503 from /healthz and hides internals of a 500 when the database is gone", async () => {
    const t = await startTestApp("embedded");
    try {
      await t.app.database.close();
      const health = await new TestClient(t.baseUrl).json("/healthz");
      expect(health.status).toBe(503);

      const res = await new TestClient(t.baseUrl).request("/trpc/auth.login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: "whatever1" }),
      });
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(JSON.parse(text).error.message).toBe(INTERNAL_MESSAGE);
      expect(text).not.toMatch(/stack|prisma|pglite|at \w+ \(/i);
    } finally {
      await t.app.close().catch(() => {});
      await t.smtp.close();
    }
  });
});

describe("logs", () => {
  it("never contain passwords, session tokens, cookies or reset tokens", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await startTestApp("embedded", { env: { LOG_LEVEL: "trace" }, logStream: sink });
    try {
      const c = new TestClient(t.baseUrl);
      const password = "very secret password";
      await c.mutate("auth.signup", { email: "logs@example.com", password });
      const mail = await t.smtp.waitFor("logs@example.com", "Confirm");
      const token = new URL(mail.text.match(/https?:\/\/\S+/)?.[0] ?? "").searchParams.get(
        "tokenHash",
      );
      await c.request(`/reset-password?tokenHash=${token}&type=recovery&email=x`);
      await c.mutate("auth.confirmEmail", { tokenHash: token, email: "logs@example.com" });
      await c.mutate("auth.login", { email: "logs@example.com", password });
      const session = c.cookies.get("warden_session") ?? "";
      await c.query("auth.me");
      await c.json("/api/me", { headers: { authorization: `Bearer ${session}` } });

      const log = lines.join("");
      expect(log.length).toBeGreaterThan(0);
      expect(log).toContain("/trpc/auth.login");
      for (const secret of [password, session, session.split(".")[1] ?? "x", token ?? "x"]) {
        expect(log).not.toContain(secret);
      }
      expect(log).not.toMatch(/cookie|authorization/i);
    } finally {
      await t.close();
    }
  });
});

describe("outbox without SMTP", () => {
  it("writes each email to DATA_DIR/outbox as .eml with its link on one line", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-outbox-"));
    const t = await startTestApp("embedded", { env: { DATA_DIR: dataDir, SMTP_URL: "" } });
    try {
      await new TestClient(t.baseUrl).mutate("auth.signup", {
        email: "outbox@example.com",
        password: "outbox password",
      });
      // The outbox worker writes the file just after the request answered.
      const outboxFiles = () => readdir(join(dataDir, "outbox")).catch(() => []);
      await expect.poll(outboxFiles).toHaveLength(1);
      const files = await outboxFiles();
      const eml = await readFile(join(dataDir, "outbox", files[0] ?? ""), "utf8");
      expect(eml).toContain("Subject: Confirm your Warden account");
      // The link as a person copies it from a terminal: one line, every "=" as it is.
      const link = eml.split("\r\n").find((line) => line.includes("/confirm-email?"));
      expect(link).toMatch(
        new RegExp(
          `^${t.config.publicUrl.replaceAll(".", "\\.")}/confirm-email\\?tokenHash=[a-z0-9]+&type=signup&email=outbox%40example\\.com$`,
        ),
      );
    } finally {
      await t.close();
    }
  });
});
