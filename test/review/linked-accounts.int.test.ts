/**
 * Linked accounts on a screening's detail (decision 023), over real HTTP on the embedded
 * database and on PostgreSQL: one hop through a shared card, device, normalized email,
 * referrer, or IP off consumer networks, over the 30 days before the screening; an identity of
 * more than 25 accounts is a hub, at most 50 accounts; each with its last-seen user id or
 * email, first seen, screenings, and whether one was blocked, denied or labelled fraud.
 */
import { describe, expect, it } from "vitest";
import { legacyDigest } from "../../server/modules/screening/features/identities.ts";
import type { LinkedAccount, ReviewItem, ScreeningDetail } from "../../shared/schemas/review.ts";
import type { LinkedSummary, ScreenInput } from "../../shared/schemas/screening.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A home ISP's address (Comcast): shared by its NAT, it links nobody. */
const CONSUMER_IP = "73.10.2.3";
/** A hosting provider's (Hetzner): it links. */
const HOSTING_IP = "5.9.0.1";
const BOT = "python-requests/2.31";

describe.each(DB_KINDS)("linked accounts (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  async function merchantOf(name: string) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    return { merchant, backend: await backendOf(t, merchant) };
  }

  /** Screens one event a minute after the one before; returns its id. */
  async function screen(backend: Backend, event: ScreenInput) {
    clock.advance(MINUTE);
    return (await backend.decide({ ip: CONSUMER_IP, ...event })).id;
  }

  /** GET /api/v1/screenings/{id} with the merchant's secret key. */
  async function detail(backend: Backend, id: string): Promise<ScreeningDetail> {
    const res = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  /** Who is linked, newest first, and through what. */
  const who = (accounts: LinkedAccount[]) =>
    accounts.map((a) => ({ who: a.user_id ?? a.email, through: a.through }));

  it("links the accounts that used the same card before, newest first, on REST and in the console", async () => {
    const { merchant, backend } = await merchantOf("card");
    const first = await screen(backend, {
      type: "signup",
      user_id: "u1",
      card_fingerprint: "fp_shared",
    });
    const firstAt = clock.now().toISOString();
    await screen(backend, {
      type: "checkout",
      user_id: "u2",
      card_fingerprint: "fp_shared",
      email: "two@example.com",
    });
    // Another card, the same person again, and the screened person itself before: none is
    // another linked account.
    await screen(backend, { type: "signup", user_id: "u9", card_fingerprint: "fp_other" });
    await screen(backend, { type: "login", user_id: "u3", card_fingerprint: "fp_shared" });
    await screen(backend, { type: "login", user_id: "u1", card_fingerprint: "fp_shared" });
    const lastOfU1 = clock.now().toISOString();
    const third = await screen(backend, {
      type: "signup",
      user_id: "u3",
      card_fingerprint: "fp_shared",
    });

    const shown = await detail(backend, third);
    expect(shown.linked_accounts).toEqual([
      {
        user_id: "u1",
        email: null,
        first_seen: firstAt,
        last_seen: lastOfU1,
        screenings: 2,
        blocked: false,
        denied: false,
        fraud: false,
        through: ["card"],
      },
      expect.objectContaining({ user_id: "u2", email: "two@example.com", screenings: 1 }),
    ]);
    expect(shown.linked_hubs).toEqual([]);
    const console = await merchant.browser.query<ScreeningDetail>("review.detail", { id: third });
    expect(console).toMatchObject({ ok: true });
    expect((console as { data: ScreeningDetail }).data.linked_accounts).toEqual(
      shown.linked_accounts,
    );
    // Only what came before a screening: the first one links nobody.
    expect((await detail(backend, first)).linked_accounts).toEqual([]);
  });

  it.each([
    {
      name: "a hosting provider's IP links",
      ip: HOSTING_IP,
      linked: [{ who: "ip-a", through: ["ip"] }],
    },
    { name: "a consumer network's IP links nobody", ip: CONSUMER_IP, linked: [] },
  ])("$name", async ({ ip, linked }) => {
    const { backend } = await merchantOf(`ip-${ip.replaceAll(".", "-")}`);
    await screen(backend, { type: "signup", user_id: "ip-a", ip });
    const b = await screen(backend, { type: "signup", user_id: "ip-b", ip });
    expect(who((await detail(backend, b)).linked_accounts)).toEqual(linked);
  });

  it("links through a device, one inbox's addresses, and a referrer", async () => {
    const { backend } = await merchantOf("kinds");
    await screen(backend, { type: "signup", email: "First.Last+a@gmail.com", device_id: "dev-1" });
    await screen(backend, { type: "referral", user_id: "r1", referrer_user_id: "boss" });
    await screen(backend, { type: "login", user_id: "d1", device_id: "dev-1" });
    const last = await screen(backend, {
      type: "referral",
      email: "firstlast+b@gmail.com",
      device_id: "dev-1",
      referrer_user_id: "boss",
    });
    expect(who((await detail(backend, last)).linked_accounts)).toEqual([
      { who: "d1", through: ["device"] },
      { who: "r1", through: ["referrer"] },
      // The same inbox under another address is another account only by user id; here
      // neither has one, so it is this account itself (its normalized email): not linked.
    ]);
  });

  it("says which linked accounts were blocked, denied in review or labelled fraud", async () => {
    const { merchant, backend } = await merchantOf("status");
    await turnOn(merchant, "rule_email", "rule_scraping");
    const blocklist = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["blocked.example"] },
    });
    expect(blocklist.status).toBe(200);
    const card = "fp_status";
    clock.advance(MINUTE);
    const blocked = await backend.decide({
      type: "signup",
      email: "x@blocked.example",
      card_fingerprint: card,
    });
    expect(blocked.decision).toBe("block");
    clock.advance(MINUTE);
    const reviewed = await backend.decide({
      type: "request",
      user_agent: BOT,
      user_id: "denied",
      card_fingerprint: card,
    });
    expect(reviewed.decision).toBe("review");
    expect(
      await merchant.browser.mutate("review.settle", { id: reviewed.id, decision: "deny" }),
    ).toMatchObject({ ok: true });
    const fraud = await screen(backend, {
      type: "signup",
      user_id: "fraud",
      card_fingerprint: card,
    });
    expect(
      await merchant.browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: fraud,
        label: "fraud",
      }),
    ).toMatchObject({ ok: true });
    await screen(backend, { type: "signup", user_id: "fine", card_fingerprint: card });
    const id = await screen(backend, { type: "signup", user_id: "me", card_fingerprint: card });
    const status = (await detail(backend, id)).linked_accounts.map((a) => ({
      who: a.user_id ?? a.email,
      blocked: a.blocked,
      denied: a.denied,
      fraud: a.fraud,
    }));
    expect(status).toEqual([
      { who: "fine", blocked: false, denied: false, fraud: false },
      { who: "fraud", blocked: false, denied: false, fraud: true },
      { who: "denied", blocked: false, denied: true, fraud: false },
      { who: "x@blocked.example", blocked: true, denied: false, fraud: false },
    ]);
  });

  it("looks 30 days back from the screening, and no later than it", async () => {
    const { backend } = await merchantOf("window");
    await screen(backend, { type: "signup", user_id: "too-old", device_id: "dev-w" });
    clock.advance(DAY + MINUTE);
    await screen(backend, { type: "signup", user_id: "in-window", device_id: "dev-w" });
    clock.advance(29 * DAY);
    const id = await screen(backend, { type: "signup", user_id: "me", device_id: "dev-w" });
    await screen(backend, { type: "signup", user_id: "after", device_id: "dev-w" });
    expect(who((await detail(backend, id)).linked_accounts)).toEqual([
      { who: "in-window", through: ["device"] },
    ]);
  });

  it("an identity of more than 25 accounts is a hub that links nobody; at most 50 accounts", async () => {
    const { backend } = await merchantOf("hubs");
    // 26 accounts on one office tablet: a hub. 25 on each of a card, a hosting IP and an
    // email: 75 accounts, of which the 50 newest are listed.
    for (let i = 0; i < 26; i++) {
      await screen(backend, { type: "login", user_id: `tablet-${i}`, device_id: "dev-office" });
    }
    for (let i = 0; i < 25; i++) {
      await screen(backend, { type: "login", user_id: `card-${i}`, card_fingerprint: "fp_many" });
      await screen(backend, { type: "login", user_id: `ip-${i}`, ip: HOSTING_IP });
      await screen(backend, { type: "login", user_id: `mail-${i}`, email: "shared@example.com" });
    }
    const id = await screen(backend, {
      type: "signup",
      user_id: "me",
      device_id: "dev-office",
      card_fingerprint: "fp_many",
      ip: HOSTING_IP,
      email: "shared@example.com",
    });
    const shown = await detail(backend, id);
    expect(shown.linked_hubs).toEqual([{ kind: "device", accounts: 26 }]);
    expect(shown.linked_accounts).toHaveLength(50);
    expect(shown.linked_accounts[0]?.user_id).toBe("mail-24");
    expect(shown.linked_accounts.some((a) => a.user_id?.startsWith("tablet-"))).toBe(false);
  });

  it("one person with rows from before keyed digests and after is one linked account", async () => {
    const { backend, merchant } = await merchantOf("legacy");
    const before = new Date(clock.now().getTime() - 2 * DAY);
    // A row stored before keyed digests (decision 013), its screening since purged.
    await t.prisma.screeningIdentity.create({
      data: {
        accountId: merchant.accountId,
        screeningId: "purged-legacy-screening",
        kind: "card",
        value: legacyDigest("card", "fp_legacy"),
        type: "checkout",
        at: before,
        subject: legacyDigest("user", "old-user"),
        userId: legacyDigest("user", "old-user"),
        blocked: false,
        keyed: false,
      },
    });
    await screen(backend, { type: "login", user_id: "old-user", card_fingerprint: "fp_legacy" });
    const id = await screen(backend, {
      type: "checkout",
      user_id: "new-user",
      card_fingerprint: "fp_legacy",
    });
    expect((await detail(backend, id)).linked_accounts).toEqual([
      expect.objectContaining({
        user_id: "old-user",
        first_seen: before.toISOString(),
        screenings: 2,
        through: ["card"],
      }),
    ]);
  });

  it("never links another merchant's accounts", async () => {
    const a = await merchantOf("isolated-a");
    const b = await merchantOf("isolated-b");
    await screen(a.backend, {
      type: "signup",
      user_id: "a-user",
      card_fingerprint: "fp_both",
      ip: HOSTING_IP,
    });
    const id = await screen(b.backend, {
      type: "signup",
      user_id: "b-user",
      card_fingerprint: "fp_both",
      ip: HOSTING_IP,
    });
    expect((await detail(b.backend, id)).linked_accounts).toEqual([]);
    expect(await a.backend.client.json(`/api/v1/screenings/${id}`)).toMatchObject({ status: 404 });
  });

  it("shows the summary stored with the screening, and null where there is none or it does not read", async () => {
    const { merchant, backend } = await merchantOf("summary");
    await turnOn(merchant, "rule_scraping");
    const reviewed = await backend.decide({ type: "request", user_agent: BOT, user_id: "s1" });
    const summary: LinkedSummary = {
      accounts: 14,
      first_seen_last_hour: 9,
      first_seen_last_day: 12,
      bad: 2,
      through: [
        { kind: "card", accounts: 12 },
        { kind: "device", accounts: 3 },
      ],
      hubs: [{ kind: "ip", accounts: 40 }],
    };
    const store = (value: unknown) =>
      t.prisma
        .$executeRaw`UPDATE "Screening" SET "linked" = ${value === null ? null : JSON.stringify(value)}::jsonb WHERE "id" = ${reviewed.id}`;
    const queued = async () => {
      const page = await merchant.browser.query<{ items: ReviewItem[] }>("review.queue", {});
      return (page as { data: { items: ReviewItem[] } }).data.items[0]?.linked;
    };
    await store(summary);
    expect((await detail(backend, reviewed.id)).linked).toEqual(summary);
    expect(await queued()).toEqual(summary);
    await store(null);
    expect((await detail(backend, reviewed.id)).linked).toBeNull();
    expect(await queued()).toBeNull();
    await store({ accounts: "many" });
    expect((await detail(backend, reviewed.id)).linked).toBeNull();
  });

  it("is in the OpenAPI document of GET /api/v1/screenings/{id}", async () => {
    const doc = await new TestClient(t.baseUrl, {}).json<{
      paths: Record<string, { get?: { summary: string; responses: Record<string, unknown> } }>;
    }>("/api/openapi.json");
    const get = doc.body.paths["/api/v1/screenings/{id}"]?.get;
    expect(get?.summary).toContain("linked accounts");
    const schema = JSON.stringify(get?.responses["200"]);
    for (const field of ["linked", "linked_accounts", "linked_hubs", "first_seen_last_hour"]) {
      expect(schema).toContain(`"${field}"`);
    }
    expect(schema).toContain("more than 25 accounts");
  });
});
