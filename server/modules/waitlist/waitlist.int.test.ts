import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../../shared/messages.ts";
import { DB_KINDS } from "../../../test/helpers/databases.ts";
import { TestClient } from "../../../test/helpers/http-client.ts";
import { startTestApp, type TestApp } from "../../../test/helpers/test-app.ts";
import { createWaitlistRepository } from "./waitlist.repository.ts";
import { WAITLIST_LIMITS } from "./waitlist.service.ts";
import { writeWaitlistCsv } from "./waitlist-export.ts";

const SOCIAL_URL = "https://mastodon.social/@warden";
let nextIp = 1;

describe.each(DB_KINDS)("waitlist on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Trusting X-Forwarded-For from loopback (our test "proxy") gives each test its own visitor.
    t = await startTestApp(kind, { env: { TRUST_PROXY: "127.0.0.1", SOCIAL_URL } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A client that reaches the server from its own, fresh IP address. */
  function visitor(ip = `203.0.113.${nextIp++}`) {
    return new TestClient(t.baseUrl, { origin: t.baseUrl, "x-forwarded-for": ip });
  }

  const rows = (email: string) => t.prisma.waitlistEntry.findMany({ where: { email } });

  it("joins with the email trimmed and lowercased, stamped with the server's clock", async () => {
    const result = await visitor().mutate("waitlist.join", { email: "  New.Person@Example.COM " });
    expect(result).toEqual({ ok: true, status: 200, data: { status: "joined" } });
    const stored = await rows("new.person@example.com");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.createdAt.getTime()).toBe(t.clock.now().getTime());
  });

  it("answers a second join of the same address, in any case, with already listed", async () => {
    const c = visitor();
    expect(await c.mutate("waitlist.join", { email: "twice@example.com" })).toMatchObject({
      ok: true,
      data: { status: "joined" },
    });
    const again = await c.mutate("waitlist.join", { email: "TWICE@example.com" });
    expect(again).toEqual({ ok: true, status: 200, data: { status: "already_listed" } });
    expect(await rows("twice@example.com")).toHaveLength(1);
  });

  it("stores one row for simultaneous joins of one email; the others hear already listed", async () => {
    const email = "race@example.com";
    const results = await Promise.all(
      ["race@example.com", "RACE@example.com", " race@example.com", "Race@Example.com", email].map(
        (variant) => visitor().mutate<{ status: string }>("waitlist.join", { email: variant }),
      ),
    );
    const statuses = results.map((r) => (r.ok ? r.data.status : `error ${r.status}`)).sort();
    expect(statuses).toEqual([
      "already_listed",
      "already_listed",
      "already_listed",
      "already_listed",
      "joined",
    ]);
    expect(await rows(email)).toHaveLength(1);
  });

  it.each([
    ["no dot in the domain", "owner@example"],
    ["a space inside", "own er@example.com"],
    ["only spaces", "   "],
    ["empty", ""],
  ])("refuses %s with 400 and the spec's reason, storing nothing", async (_what, email) => {
    const before = await t.prisma.waitlistEntry.count();
    const result = await visitor().mutate("waitlist.join", { email });
    expect(result).toMatchObject({ ok: false, status: 400 });
    if (!result.ok) {
      expect(result.error.data.issues).toEqual([
        { path: "email", message: MESSAGES.waitlistInvalidEmail },
      ]);
      expect(result.error.message).toBe(`email: ${MESSAGES.waitlistInvalidEmail}`);
    }
    expect(await t.prisma.waitlistEntry.count()).toBe(before);
  });

  it("refuses a body that is not an email object with 400", async () => {
    const result = await visitor().mutate("waitlist.join", { email: 42, extra: true });
    expect(result).toMatchObject({ ok: false, status: 400 });
  });

  it("limits joins per IP with a clear 429, leaves other visitors alone, and forgives after a minute", async () => {
    const { limit, windowMs } = WAITLIST_LIMITS.joinPerIp;
    const ip = `198.51.100.${nextIp++}`;
    const c = visitor(ip);
    for (let i = 0; i < limit; i++) {
      const ok = await c.mutate("waitlist.join", { email: `limit-${i}@example.com` });
      expect(ok.ok).toBe(true);
    }
    const refused = await c.mutate("waitlist.join", { email: "one-too-many@example.com" });
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (!refused.ok) expect(refused.error.message).toBe(MESSAGES.waitlistTooManyRequests);
    expect(await rows("one-too-many@example.com")).toHaveLength(0);

    const other = await visitor().mutate("waitlist.join", { email: "other-ip@example.com" });
    expect(other).toMatchObject({ ok: true, data: { status: "joined" } });

    t.clock.advance(windowMs);
    const later = await visitor(ip).mutate("waitlist.join", { email: "one-too-many@example.com" });
    expect(later).toMatchObject({ ok: true, data: { status: "joined" } });
  });

  it("tells the landing page the configured social profile", async () => {
    expect(await visitor().query("waitlist.links")).toEqual({
      ok: true,
      status: 200,
      data: { socialUrl: SOCIAL_URL },
    });
  });

  it("exports every entry as CSV in the order they joined", async () => {
    const c = visitor();
    for (const email of ["export-b@example.com", "export-a@example.com"]) {
      expect((await c.mutate("waitlist.join", { email })).ok).toBe(true);
    }
    let csv = "";
    const count = await writeWaitlistCsv(createWaitlistRepository(t.prisma), async (chunk) => {
      csv += chunk;
    });
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("email,created");
    expect(lines.at(-1)).toBe("");
    expect(count).toBe(await t.prisma.waitlistEntry.count());
    expect(lines).toHaveLength(count + 2);
    const emails = lines.slice(1, -1).map((line) => line.split(",")[0]);
    expect(emails.indexOf("export-b@example.com")).toBeLessThan(
      emails.indexOf("export-a@example.com"),
    );
    expect(emails[0]).toBe("new.person@example.com");
  });
});
