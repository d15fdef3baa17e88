/**
 * GET /api/live over real HTTP on both databases: a signed-in member's stream hears of a
 * screening stored, a charge ingested and a review settled in their account within 2 s, and
 * of nothing in another's; no session is a 401, a plain GET a 400, a member's 6th stream a
 * 429; a burst of screenings is a handful of events; app.close() ends the streams instead of
 * waiting on them; the dashboard's decisions per minute count the account's own by the app's
 * clock; a stream ends within 2 s of its session's logout, its member's removal from the
 * account, the account requiring a second factor its member lacks, or the account's deletion;
 * and on PostgreSQL a screening stored through one instance reaches a stream on another, and
 * a logout through one ends a stream on another.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { type OpenStream, openLiveStream } from "./event-stream.ts";

const BOT = { type: "request", user_agent: "python-requests/2.31" } as const;
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const WITHIN_MS = 2_000;
/** A stream whose session no longer admits it ends within this (read again each second). */
const ENDS_WITHIN_MS = 2_000;

const bearer = (merchant: Merchant) => ({ authorization: `Bearer ${merchant.token}` });
const cookie = (merchant: Merchant) => ({
  cookie: [...merchant.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
});

describe.each(DB_KINDS)("live console streams (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let other: Merchant;
  let backend: Backend;
  const open: OpenStream[] = [];
  const stream = async (headers: Record<string, string>, accept?: string) => {
    const s = await openLiveStream(t.baseUrl, headers, accept);
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `live-${kind}@example.com`);
    other = await signedInMerchant(t, `live-other-${kind}@example.com`);
    backend = await backendOf(t, merchant);
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });
  const userIdOf = async (m: Merchant) =>
    (await t.prisma.user.findUniqueOrThrow({ where: { email: m.email } })).id;

  it("tells the account's stream of a new screening within 2 s, and another account's nothing", async () => {
    const mine = await stream(bearer(merchant));
    const theirs = await stream(cookie(other));
    expect(mine.status).toBe(200);
    expect(mine.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(theirs.status).toBe(200);
    await expect.poll(() => mine.text()).toContain("retry: ");

    const sent = Date.now();
    await backend.decide({ type: "signup", email: "new.user@example.com" });
    const at = await mine.waitFor("screenings", WITHIN_MS);
    console.log(`live: screening reached the stream ${at - sent} ms after it was sent`);
    // Long enough for any misdirected event to have arrived.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(theirs.events).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("tells of a charge ingested from Stripe and of a review settled", async () => {
    const mine = await stream(cookie(merchant));
    const { path, webhookSecret } = await connectStripe(merchant);
    const delivered = await deliver(
      t,
      path,
      buildEvent("charge.succeeded", buildCharge({})),
      webhookSecret,
    );
    expect(delivered.status).toBe(200);
    await mine.waitFor("charges", WITHIN_MS);

    await turnOn(merchant, "rule_scraping");
    const review = await backend.decide({ ...BOT, user_id: "u-live-review" });
    expect(review.decision).toBe("review");
    const from = mine.events.length;
    const settled = await merchant.browser.mutate("review.settle", {
      id: review.id,
      decision: "deny",
    });
    expect(settled).toMatchObject({ ok: true });
    await mine.waitFor("review", WITHIN_MS, from);
    mine.close();
  });

  it("refuses a caller without a session (401) and a request that does not accept events (400)", async () => {
    const anonymous = await stream({});
    expect(anonymous.status).toBe(401);
    expect((await anonymous.error()).error.message).toBe("Please log in.");
    const made = await stream({ authorization: "Bearer not-a-session-token-at-all" });
    expect(made.status).toBe(401);
    const plain = await stream(bearer(merchant), "application/json");
    expect(plain.status).toBe(400);
    expect((await plain.error()).error.message).toMatch(/Accept: text\/event-stream/);
  });

  it("lets a member hold 5 streams; the 6th is a 429 until one closes", async () => {
    const member = await signedInMerchant(t, `live-cap-${kind}@example.com`);
    const five = [];
    for (let i = 0; i < 5; i++) {
      const s = await stream(i % 2 ? cookie(member) : bearer(member));
      expect(s.status, `stream ${i + 1}`).toBe(200);
      five.push(s);
    }
    const sixth = await stream(bearer(member));
    expect(sixth.status).toBe(429);
    expect((await sixth.error()).error.message).toBe(
      "You have 5 live pages open already. Close one of them to see live updates here.",
    );
    // Another member is not held back by this one.
    const someoneElse = await stream(bearer(other));
    expect(someoneElse.status).toBe(200);
    someoneElse.close();

    // A page that goes away frees its place.
    five[0]?.close();
    await expect
      .poll(
        async () => {
          const again = await stream(bearer(member));
          again.close();
          return again.status;
        },
        { timeout: 5_000, interval: 100 },
      )
      .toBe(200);
    for (const s of five) s.close();
  });

  it("coalesces a burst of 300 screenings into a few events", async () => {
    const mine = await stream(bearer(merchant));
    await expect.poll(() => mine.text()).toContain("retry: ");
    const start = Date.now();
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        backend.decide({ type: "signup", email: `burst-${i}@example.com` }),
      ),
    );
    const took = Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const screenings = mine.topics().filter((topic) => topic === "screenings").length;
    console.log(`live: 300 screenings in ${took} ms became ${screenings} events`);
    expect(screenings).toBeGreaterThanOrEqual(1);
    // One at once and at most one more per 250 ms, and the trailing one.
    expect(screenings).toBeLessThanOrEqual(Math.ceil(took / 250) + 2);
    expect(screenings).toBeLessThan(30);
    mine.close();
  });

  it("counts the account's decisions per minute over the last hour, by the app's clock", async () => {
    type PerMinute = {
      minutes: { minute: string; allow: number; review: number; block: number }[];
      totals: { allow: number; review: number; block: number };
    };
    const counter = await signedInMerchant(t, `live-minutes-${kind}@example.com`);
    const counted = await backendOf(t, counter);
    await turnOn(counter, "rule_scraping");
    await counted.decide({ type: "signup", email: "one@example.com", user_agent: BROWSER });
    await counted.decide({ type: "signup", email: "two@example.com", user_agent: BROWSER });
    await counted.decide({ ...BOT, user_id: "u-minutes" });
    const read = async (m: Merchant) => {
      const res = await m.browser.query<PerMinute>("screenings.perMinute");
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return res.data;
    };
    const data = await read(counter);
    expect(data.minutes).toHaveLength(60);
    expect(data.totals).toEqual({ allow: 2, review: 1, block: 0 });
    // The current minute (UTC, whatever the server's or the database's time zone) is the last.
    const minute = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000).toISOString();
    expect(data.minutes.at(-1)).toEqual({ minute, allow: 2, review: 1, block: 0 });
    // Another account's chart does not count them.
    expect((await read(other)).totals).toEqual({ allow: 0, review: 0, block: 0 });
    // An hour later by the app's clock, they have rolled off.
    t.clock.advance(30 * 60_000);
    expect((await read(counter)).minutes[29]).toMatchObject({ allow: 2, review: 1 });
    t.clock.advance(31 * 60_000);
    expect((await read(counter)).totals).toEqual({ allow: 0, review: 0, block: 0 });
    const anonymous = await new TestClient(t.baseUrl).query("screenings.perMinute");
    expect(anonymous.ok ? 200 : anonymous.status).toBe(401);
  });

  it("ends a stream within 2 s of a logout, a removal, two-factor required, or the account deleted", async () => {
    const owner = await signedInMerchant(t, `live-owner-${kind}@example.com`);
    const removed = await signedInMerchant(t, `live-removed-${kind}@example.com`);
    const viewer = await signedInMerchant(t, `live-viewer-${kind}@example.com`);
    /** `member`'s cookie session joins `to`'s account as a viewer. */
    const join = async (to: Merchant, member: Merchant) => {
      expect(
        await to.browser.mutate("team.invite", { email: member.email, role: "viewer" }),
      ).toMatchObject({ ok: true });
      const mail = await t.smtp.waitFor(member.email, "invited you");
      const token = linkIn(mail, "/invite").searchParams.get("token");
      expect(await member.browser.mutate("team.acceptInvite", { token })).toMatchObject({
        ok: true,
      });
    };
    await join(owner, removed);
    await join(owner, viewer);
    const connected = async (headers: Record<string, string>) => {
      const s = await stream(headers);
      expect(s.status).toBe(200);
      await expect.poll(() => s.text()).toContain("retry: ");
      return s;
    };
    /** `s` ends within 2 s of `since` (when the change was made). */
    const ends = async (s: OpenStream, what: string, since: number) => {
      await s.waitForEnd(Math.max(0, since + ENDS_WITHIN_MS - Date.now()));
      console.log(`live: a stream ended ${Date.now() - since} ms after ${what}`);
    };
    const ownerBearer = await connected(bearer(owner));
    const ownerCookie = await connected(cookie(owner));
    const removedHere = await connected(cookie(removed));
    // The bearer session of the member removed acts in their own account: it stays.
    const removedAtHome = await connected(bearer(removed));
    const viewerHere = await connected(cookie(viewer));

    let since = Date.now();
    expect((await owner.api.json("/api/auth/logout", { body: {} })).status).toBe(200);
    await ends(ownerBearer, "its logout", since);
    expect(ownerCookie.ended(), "the owner's other session").toBe(false);

    const removedId = await userIdOf(removed);
    since = Date.now();
    expect(await owner.browser.mutate("team.remove", { user_id: removedId })).toMatchObject({
      ok: true,
    });
    await ends(removedHere, "its member's removal", since);
    expect(removedAtHome.ended(), "the removed member's stream in their own account").toBe(false);

    // Neither the viewer nor the owner has a second factor: both may only set one up now.
    const security = { require_two_factor: true, audit_retention_days: 365 };
    since = Date.now();
    expect(await owner.browser.mutate("security.put", security)).toMatchObject({ ok: true });
    await ends(viewerHere, "two-factor became required", since);
    await ends(ownerCookie, "two-factor became required", since);

    // Deleting an account ends its owner's streams and its members'.
    const doomed = await signedInMerchant(t, `live-doomed-${kind}@example.com`);
    const guest = await signedInMerchant(t, `live-guest-${kind}@example.com`);
    await join(doomed, guest);
    const doomedOwner = await connected(bearer(doomed));
    const guestThere = await connected(cookie(guest));
    since = Date.now();
    const deleted = await doomed.browser.mutate("account.delete", {
      confirm: "delete",
      password: doomed.password,
    });
    expect(deleted).toMatchObject({ ok: true });
    await ends(doomedOwner, "its account's deletion", since);
    await ends(guestThere, "its account's deletion", since);
    expect(removedAtHome.ended()).toBe(false);
    removedAtHome.close();
  });

  it("ends open streams when the app closes, without waiting on them", async () => {
    const app = await startTestApp(kind, kind === "postgres" ? { database: t.database } : {});
    const member = await signedInMerchant(app, `live-close-${kind}@example.com`);
    const s = await openLiveStream(app.baseUrl, bearer(member));
    expect(s.status).toBe(200);
    await expect.poll(() => s.text()).toContain("retry: ");
    const closing = Date.now();
    await app.close();
    await s.waitForEnd(2_000);
    expect(Date.now() - closing).toBeLessThan(2_000);
  });
});

describe.runIf(DB_KINDS.includes("postgres"))("live streams across two instances", () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp("postgres");
    b = await startTestApp("postgres", { database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("ends a stream on instance A within 2 s of its session's logout through instance B", async () => {
    const merchant = await signedInMerchant(a, "live-two-logout@example.com");
    const onA = await openLiveStream(a.baseUrl, bearer(merchant));
    try {
      expect(onA.status).toBe(200);
      await expect.poll(() => onA.text()).toContain("retry: ");
      const out = await fetch(`${b.baseUrl}/api/auth/logout`, {
        method: "POST",
        headers: { ...bearer(merchant), "content-type": "application/json" },
        body: "{}",
      });
      expect(out.status).toBe(200);
      await onA.waitForEnd(ENDS_WITHIN_MS);
    } finally {
      onA.close();
    }
  });

  it("brings a screening stored through instance B to a stream on instance A within 2 s", async () => {
    const merchant = await signedInMerchant(a, "live-two@example.com");
    const backend = await backendOf(a, merchant);
    const onA = await openLiveStream(a.baseUrl, bearer(merchant));
    expect(onA.status).toBe(200);
    await expect.poll(() => onA.text()).toContain("retry: ");
    try {
      const sent = Date.now();
      const res = await fetch(`${b.baseUrl}/api/v1/screen`, {
        method: "POST",
        headers: { authorization: `Bearer ${backend.key}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "signup", email: "from.b@example.com" }),
      });
      expect(res.status).toBe(200);
      const at = await onA.waitFor("screenings", WITHIN_MS);
      console.log(`live: a screening on B reached a stream on A in ${at - sent} ms`);
    } finally {
      onA.close();
    }
  });
});
