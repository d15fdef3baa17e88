/**
 * Allow lists over real HTTP, on the embedded database and on PostgreSQL: an entry beats the
 * rules and says so, a block-list entry for the same value still wins, entries expire, and
 * approving a review can put the user on the list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AllowEntryView } from "../../shared/schemas/allow-list.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15";
const HOUR = 3_600_000;

describe.each(DB_KINDS)("allow list (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  beforeAll(async () => {
    t = await startTestApp(kind, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function setUp(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_email");
    const add = (entry: Record<string, unknown>) =>
      merchant.browser.mutate<AllowEntryView>("allowList.add", entry);
    const signup = (extra: Record<string, string> = {}) =>
      backend.decide({
        type: "signup",
        user_agent: BROWSER,
        email: "x@mailinator.com",
        user_id: "u1",
        ...extra,
      });
    return { merchant, backend, add, signup };
  }

  it("allows a listed user whatever the rules say, and says who listed it and when", async () => {
    const { merchant, add, signup } = await setUp("allow");
    expect((await signup()).decision).toBe("block");
    expect(await add({ kind: "user_id", value: "u1", note: "our CEO" })).toMatchObject({
      ok: true,
      data: { kind: "user_id", value: "u1", added_by: merchant.email, expires_at: null },
    });
    const answer = await signup();
    expect(answer).toMatchObject({
      decision: "allow",
      reasons: [],
      monitored: [{ rule: "rule_email", action: "block" }],
      allowed: {
        kind: "user_id",
        value: "u1",
        message: `allowed: user id on allow list, added by ${merchant.email} on 2026-11-20`,
      },
    });
    expect((await signup({ user_id: "u2" })).decision).toBe("block");

    const list = await merchant.browser.query<AllowEntryView[]>("allowList.list");
    expect(list).toMatchObject({ ok: true, data: [{ value: "u1", note: "our CEO" }] });
    const id = (list as { data: AllowEntryView[] }).data[0]?.id;
    expect(await merchant.browser.mutate("allowList.remove", { id })).toMatchObject({ ok: true });
    expect((await signup()).decision).toBe("block");
  });

  it("matches IP ranges and lowercases emails; a block-list entry for the same value wins", async () => {
    const { merchant, add, signup } = await setUp("ranges");
    expect(await add({ kind: "ip_cidr", value: "203.0.113.0/24" })).toMatchObject({ ok: true });
    expect((await signup({ ip: "203.0.113.77" })).allowed?.kind).toBe("ip_cidr");
    expect((await signup({ ip: "198.51.100.1" })).decision).toBe("block");

    expect(await add({ kind: "email", value: "Y@Mailinator.com" })).toMatchObject({
      ok: true,
      data: { value: "y@mailinator.com" },
    });
    expect((await signup({ email: "y@mailinator.com", user_id: "u9" })).allowed?.kind).toBe(
      "email",
    );

    const blocked = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["spam.example"] },
    });
    expect(blocked.status).toBe(200);
    expect(await add({ kind: "email_domain", value: "spam.example" })).toMatchObject({ ok: true });
    const answer = await signup({ email: "a@spam.example", user_id: "u10" });
    expect(answer.decision).toBe("block");
    expect(answer.reasons[0]?.message).toBe("email provider spam.example is blocked");
  });

  it("stops applying an entry when it expires, without waiting for the policy cache", async () => {
    const { add, signup } = await setUp("expiry");
    const expires = new Date(clock.now().getTime() + HOUR).toISOString();
    expect(await add({ kind: "user_id", value: "u1", expires_at: expires })).toMatchObject({
      ok: true,
    });
    expect((await signup()).decision).toBe("allow");
    clock.advance(HOUR + 1000);
    expect((await signup()).decision).toBe("block");
  });

  it("refuses bad entries with 400 naming the field", async () => {
    const { add } = await setUp("invalid");
    for (const [entry, field] of [
      [{ kind: "ip_cidr", value: "203.0.113.0/33" }, "value"],
      [{ kind: "email_domain", value: "not a domain" }, "value"],
      [{ kind: "country", value: "US" }, "kind"],
      [{ kind: "user_id", value: "u1", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    ] as const) {
      const res = await add(entry);
      expect(res, JSON.stringify(entry)).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(res)).toContain(`"path":"${field}"`);
    }
  });

  it("puts the user on the allow list when a review is approved with always allow", async () => {
    const { merchant, backend } = await setUp("always");
    await turnOn(merchant, "rule_email", "rule_scraping");
    const review = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      user_id: "u-bot",
    });
    expect(review.decision).toBe("review");
    const settled = await merchant.browser.mutate("review.settle", {
      id: review.id,
      decision: "approve",
      always_allow: true,
    });
    expect(settled).toMatchObject({ ok: true });
    const again = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      user_id: "u-bot",
    });
    expect(again).toMatchObject({
      decision: "allow",
      allowed: { kind: "user_id", value: "u-bot" },
    });
    const list = await merchant.browser.query<AllowEntryView[]>("allowList.list");
    expect(list).toMatchObject({
      data: [{ kind: "user_id", value: "u-bot", note: "approved in review" }],
    });
  });
});
