/**
 * An end user's export and erasure (decision 029) over real HTTP, on the embedded database and
 * on PostgreSQL: a person seeded through the real API (screenings with a device and an IP, a
 * review settled with a note, a label, an allow-list entry, a charge through a signed Stripe
 * webhook, a collector token, a decision webhook delivery) is found with each item's source,
 * in their account only; bad selectors are a 400 naming the field; the erasure leaves none of
 * their values in the account's rows (the audit log's mentions included), keeps the counting
 * identities so one trial per email still holds, audits and announces itself without the
 * values; the audit log still refuses a plain UPDATE; and only owners and admins may erase.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { PERSONAL_COLUMNS } from "../../server/modules/privacy/personal-columns.ts";
import type {
  EndUserExport,
  ErasurePreview,
  ErasureResult,
} from "../../shared/schemas/end-users.ts";
import type { Role } from "../../shared/team/roles.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import {
  allowOrigins,
  humanSignals,
  publishableKeyOf,
  SHOP,
  tokenFor,
} from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { type WebhookReceiver, withTestAppAndReceiver } from "../with-test-app.ts";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15";
const BOT = "python-requests/2.31";

type Person = { email: string; alias: string; user: string; device: string; ip: string };

const personOf = (name: string): Person => ({
  email: `jane.${name}@buyer.example`,
  alias: `jd.${name}@other.example`,
  user: `cust-${name}-7731`,
  device: `dev_${name}_5f0c9a2e71`,
  ip: "203.0.113.57",
});

describe.each(DB_KINDS)("an end user's export and erasure (%s)", (kind) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  withTestAppAndReceiver(kind, (app, started) => {
    t = app;
    hook = started;
  });
  beforeAll(async () => {
    // Two merchants whose customers share the same email, user id, device and IP.
    a = await seeded("acme", personOf("shared"));
    b = await seeded("bolt", personOf("shared"));
  });

  /** A merchant with one person's data, seeded through the real API. */
  async function seeded(name: string, person = personOf(name)) {
    const merchant = await signedInMerchant(t, `${name}-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping", "rule_ip");
    const endpoint = await merchant.browser.mutate("webhooks.createEndpoint", {
      url: hook.url,
      events: ["screening.review", "end_user.erased"],
    });
    expect(endpoint).toMatchObject({ ok: true });
    // The person's trial: email, user id, device and IP.
    const trial = await backend.decide({
      type: "trial_start",
      email: person.email,
      user_id: person.user,
      device_id: person.device,
      ip: person.ip,
      user_agent: BROWSER,
    });
    expect(trial.decision).toBe("allow");
    // A request under another email of theirs, reviewed and approved with a note naming them.
    const review = await backend.decide({
      type: "request",
      email: person.alias,
      user_id: person.user,
      user_agent: BOT,
    });
    expect(review.decision).toBe("review");
    expect(
      await merchant.browser.mutate("review.settle", {
        id: review.id,
        decision: "approve",
        note: `called ${person.email} back`,
      }),
    ).toMatchObject({ ok: true });
    expect(
      await merchant.browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: trial.id,
        label: "legitimate",
        note: `verified ${person.email}`,
      }),
    ).toMatchObject({ ok: true });
    expect(
      await merchant.browser.mutate("allowList.add", { kind: "email", value: person.email }),
    ).toMatchObject({ ok: true });
    // A charge of theirs through a signed Stripe webhook.
    const stripe = await connectStripe(merchant);
    const charge = buildCharge({ email: person.email });
    const sent = await deliver(
      t,
      stripe.path,
      buildEvent("charge.succeeded", charge),
      stripe.webhookSecret,
    );
    expect(sent.status).toBe(200);
    // Their browser's signals, not yet screened.
    await allowOrigins(merchant, [SHOP]);
    const publishable = await publishableKeyOf(merchant);
    await tokenFor(t, publishable.key, humanSignals({ device_id: person.device }));
    // The screening.review delivery (it carries their user id) is stored and sent.
    const deadline = Date.now() + 10_000;
    const deliveries = () =>
      t.prisma.webhookDelivery.count({
        where: { accountId: merchant.accountId, eventType: "screening.review" },
      });
    while ((await deliveries()) < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await deliveries()).toBe(1);
    return { merchant, backend, person, trial, review, charge, publishable };
  }

  const exportOf = (backend: Backend, query: Record<string, string>) =>
    backend.client.json<EndUserExport & { error?: { message: string; issues: unknown[] } }>(
      `/api/v1/end-users/export?${new URLSearchParams(query)}`,
    );
  const eraseOf = (backend: Backend, body: unknown) =>
    backend.client.json<ErasureResult & { error?: { message: string } }>(
      "/api/v1/end-users/erase",
      {
        body,
      },
    );

  /** Everything stored for an account in the tables that hold end users' data, as text. */
  async function stored(accountId: string): Promise<string> {
    const where = { accountId };
    const rows = await Promise.all([
      t.prisma.screening.findMany({ where }),
      t.prisma.transaction.findMany({ where }),
      t.prisma.label.findMany({ where }),
      t.prisma.allowEntry.findMany({ where }),
      t.prisma.signalToken.findMany({ where }),
      t.prisma.webhookDelivery.findMany({ where }),
      t.prisma.auditEvent.findMany({ where }),
      t.prisma.stripeAction.findMany({ where }),
    ]);
    return JSON.stringify(rows, (_key, value) =>
      typeof value === "bigint" ? value.toString() : value,
    ).toLowerCase();
  }
  const valuesOf = (p: Person) => [p.email, p.alias, p.user, p.device];

  let a: Awaited<ReturnType<typeof seeded>>;
  let b: Awaited<ReturnType<typeof seeded>>;

  it("exports everything about the person, each item with its source, in their account only", async () => {
    // As asked: the trial only. The user id it carried is offered, not followed.
    const asked = await exportOf(a.backend, { email: a.person.email, device_id: a.person.device });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.screenings.map((s) => s.id)).toEqual([a.trial.id]);
    expect(asked.body).toMatchObject({
      widened: false,
      spellings: [],
      widening: { emails: [], user_ids: [a.person.user] },
    });
    const res = await exportOf(a.backend, {
      email: a.person.email,
      device_id: a.person.device,
      widen: "true",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body;
    expect(body.selectors).toEqual(["email", "device_id"]);
    expect(body.subject).toEqual({ email: a.person.email, device_id: a.person.device });
    expect(body.widened).toBe(true);
    // Widened: the review under the other email is found through the user id the trial carried.
    expect(body.screenings.map((s) => s.id).sort()).toEqual([a.trial.id, a.review.id].sort());
    expect(body.screenings.find((s) => s.id === a.review.id)).toMatchObject({
      email: a.person.alias,
      review_note: `called ${a.person.email} back`,
    });
    expect(body.charges).toEqual([
      expect.objectContaining({ source: "charges", charge_id: a.charge.id, email: a.person.email }),
    ]);
    expect(body.labels).toEqual([
      expect.objectContaining({ source: "labels", subject_id: a.trial.id, label: "legitimate" }),
    ]);
    expect(body.allow_entries).toEqual([
      expect.objectContaining({ source: "allow_entries", kind: "email", value: a.person.email }),
    ]);
    expect(body.signal_tokens).toEqual([
      expect.objectContaining({
        source: "signal_tokens",
        signals: expect.objectContaining({ device_id: a.person.device }),
      }),
    ]);
    expect(body.webhook_deliveries).toEqual([
      expect.objectContaining({ source: "webhook_deliveries", event_type: "screening.review" }),
    ]);
    const actions = body.audit_events.map((e) => e.action).sort();
    expect(actions).toEqual(
      expect.arrayContaining(["allowList.add", "labels.add", "review.settle"]),
    );
    for (const [section, items] of Object.entries(body)) {
      if (!Array.isArray(items) || ["selectors", "truncated", "spellings"].includes(section)) {
        continue;
      }
      for (const item of items as { source: string }[]) expect(item.source).toBe(section);
      expect(body.counts[section as keyof typeof body.counts]).toBe(items.length);
    }
    expect(body.identities.count).toBeGreaterThan(0);
    expect(body.identities.kinds).toMatchObject({ email: 2, device: 1 });
    expect(Object.keys(body.sources).sort()).toEqual(Object.keys(body.counts).sort());
    expect(body.truncated).toEqual([]);

    // B's customer with the same values is not in A's export, nor A's in B's.
    const bIds = [b.trial.id, b.review.id, b.charge.id, b.merchant.accountId];
    for (const id of bIds.slice(0, 2)) expect(JSON.stringify(body)).not.toContain(id);
    const theirs = await exportOf(b.backend, { email: b.person.email, widen: "true" });
    expect(JSON.stringify(theirs.body)).not.toContain(a.trial.id);
    expect(theirs.body.screenings).toHaveLength(2);

    // An IP alone finds the trial (an IP does not expand to the person's other rows).
    const byIp = await exportOf(a.backend, { ip: a.person.ip });
    expect(byIp.body.screenings.map((s) => s.id)).toEqual([a.trial.id]);

    // The export's audit event keeps the kinds and counts, never the values.
    // Both exports may share a millisecond on the test clock: read them all, not "the newest".
    const audits = await t.prisma.auditEvent.findMany({
      where: { accountId: a.merchant.accountId, action: "endUsersApi.export" },
    });
    expect(audits.map((e) => e.after)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          selectors: ["ip"],
          counts: expect.objectContaining({ screenings: 1 }),
        }),
        expect.objectContaining({ selectors: ["email", "device_id"] }),
      ]),
    );
    for (const value of valuesOf(a.person)) expect(JSON.stringify(audits)).not.toContain(value);
  });

  it("refuses a bad selector with a 400 naming the field, and a missing or publishable key", async () => {
    for (const [query, field] of [
      [{}, "email"],
      [{ email: "not-an-email" }, "email"],
      [{ ip: "300.1.2.3" }, "ip"],
      [{ email: "" }, "email"],
      [{ user_id: "u1", colour: "blue" }, "(root)"],
    ] as const) {
      const res = await exportOf(a.backend, query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(query)).toContain(`"path":"${field}"`);
    }
    expect(
      JSON.stringify((await exportOf(a.backend, { user_id: "u", colour: "x" })).body),
    ).toContain("Unknown key: colour");
    for (const body of [{}, { ip: "nope" }, { email: a.person.email, extra: 1 }]) {
      expect((await eraseOf(a.backend, body)).status, JSON.stringify(body)).toBe(400);
    }
    const anonymous = new TestClient(t.baseUrl, {});
    const query = `?email=${encodeURIComponent(a.person.email)}`;
    expect((await anonymous.json(`/api/v1/end-users/export${query}`)).status).toBe(401);
    expect(
      (await anonymous.json("/api/v1/end-users/erase", { body: { email: a.person.email } })).status,
    ).toBe(401);
    const publishable = new TestClient(t.baseUrl, {
      authorization: `Bearer ${a.publishable.key}`,
    });
    expect((await publishable.json(`/api/v1/end-users/export${query}`)).status).toBe(403);
    // A console session is not an API key.
    expect((await a.merchant.api.json(`/api/v1/end-users/export${query}`)).status).toBe(401);
    // Nothing was erased by any of these.
    expect(await t.prisma.allowEntry.count({ where: { accountId: a.merchant.accountId } })).toBe(1);

    const doc = await anonymous.json<{ paths: Record<string, Record<string, { tags: string[] }>> }>(
      "/api/openapi.json",
    );
    expect(doc.body.paths["/api/v1/end-users/export"]?.get?.tags).toEqual(["decisions"]);
    expect(doc.body.paths["/api/v1/end-users/erase"]?.post?.tags).toEqual(["decisions"]);
  });

  it("erases the person in their account only, keeps the counting identities, audits and announces it without the values", async () => {
    const accountId = a.merchant.accountId;
    const identitiesBefore = await t.prisma.screeningIdentity.count({ where: { accountId } });
    const bBefore = await stored(b.merchant.accountId);
    const allowAudit = await t.prisma.auditEvent.findFirstOrThrow({
      where: { accountId, action: "allowList.add" },
    });
    expect(JSON.stringify(allowAudit.after)).toContain(a.person.email);

    const preview = await a.merchant.browser.query<ErasurePreview>("endUsers.preview", {
      email: a.person.email,
      device_id: a.person.device,
      widen: true,
    });
    expect(preview).toMatchObject({ ok: true, data: { widened: true } });
    const previewed = (preview as { data: ErasurePreview }).data;
    expect(previewed.not_searched.length).toBeGreaterThan(0);

    const res = await eraseOf(a.backend, {
      email: a.person.email,
      device_id: a.person.device,
      widen: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.counts).toMatchObject({
      screenings: 2,
      charges: 1,
      labels: 1,
      allow_entries: 1,
      signal_tokens: 1,
      webhook_deliveries: 1,
      identities: identitiesBefore,
    });
    expect(res.body.counts.audit_events).toBeGreaterThanOrEqual(3);
    expect(res.body.counts).toEqual({
      ...previewed.counts,
      // The preview's own reads are not audited; the export's audit event names no value.
      audit_events: res.body.counts.audit_events,
    });
    expect(res.body.kept.join(" ")).toMatch(/keyed digests/);
    for (const value of valuesOf(a.person)) expect(JSON.stringify(res.body)).not.toContain(value);

    // None of the person's values is left in the account's rows; B's are untouched.
    const after = await stored(accountId);
    for (const value of valuesOf(a.person)) expect(after, value).not.toContain(value.toLowerCase());
    expect(await stored(b.merchant.accountId)).toBe(bBefore);
    expect(bBefore).toContain(b.person.email);

    // What is kept: decisions, scores, types; the label's value; the charge's amount.
    const trial = await t.prisma.screening.findUniqueOrThrow({ where: { id: a.trial.id } });
    expect(trial).toMatchObject({
      decision: "allow",
      type: "trial_start",
      email: null,
      userId: null,
      ip: null,
      signals: null,
      input: { type: "trial_start" },
    });
    const label = await t.prisma.label.findFirstOrThrow({ where: { subjectId: a.trial.id } });
    expect(label).toMatchObject({ label: "legitimate", note: null });
    const charge = await t.prisma.transaction.findFirstOrThrow({
      where: { chargeId: a.charge.id },
    });
    expect(charge).toMatchObject({ email: null, cardFingerprint: null, amount: a.charge.amount });
    expect(await t.prisma.screeningIdentity.count({ where: { accountId } })).toBe(identitiesBefore);

    // The audit log: the earlier allow-list entry no longer names them; the erasure has counts.
    const scrubbed = await t.prisma.auditEvent.findUniqueOrThrow({ where: { id: allowAudit.id } });
    expect(scrubbed).toMatchObject({ action: "allowList.add", actor: allowAudit.actor });
    expect(JSON.stringify(scrubbed.after)).toContain("[erased]");
    const erasure = await t.prisma.auditEvent.findFirstOrThrow({
      where: { accountId, action: "endUsersApi.erase" },
    });
    expect(erasure.after).toEqual({
      selectors: ["email", "device_id"],
      counts: res.body.counts,
      erasure_id: res.body.erasure_id,
      widened: true,
    });
    // Outside an erasure, the audit log still refuses any change.
    await expect(
      t.prisma.$executeRaw`UPDATE "AuditEvent" SET "target" = 'x' WHERE "id" = ${erasure.id}`,
    ).rejects.toThrow(/cannot be changed/);

    // The merchant's endpoint hears of it: ids and counts, no value.
    await expect
      .poll(() => hook.events().filter((e) => e.type === "end_user.erased").length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(1);
    const delivered = hook.received.find((r) => r.body.includes(res.body.erasure_id));
    expect(delivered).toBeDefined();
    const event = JSON.parse(delivered?.body ?? "{}") as { data: Record<string, unknown> };
    expect(event.data).toEqual({
      erasure_id: res.body.erasure_id,
      erased_at: res.body.erased_at,
      selectors: ["email", "device_id"],
      counts: res.body.counts,
    });
    for (const value of valuesOf(a.person)) expect(delivered?.body).not.toContain(value);

    // The counting identities still count: a new account's trial with the same email is blocked.
    const again = await a.backend.decide({
      type: "trial_start",
      email: a.person.email,
      user_id: "someone-else-1",
      user_agent: BROWSER,
    });
    expect(again.decision).toBe("block");
    expect(again.reasons.map((r) => r.rule)).toContain("rule_ip");
  });

  it("answers zero counts for someone unknown, and two erasures at once both succeed", async () => {
    const unknown = await eraseOf(a.backend, { email: "nobody@nowhere.example" });
    expect(unknown.status).toBe(200);
    expect(Object.values(unknown.body.counts).every((n) => n === 0)).toBe(true);

    const c = await seeded("twice");
    const both = await Promise.all([
      eraseOf(c.backend, { email: c.person.email, widen: true }),
      eraseOf(c.backend, { user_id: c.person.user, widen: true }),
    ]);
    for (const res of both) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(both.map((r) => r.body.counts.screenings).sort()).toContain(2);
    const after = await stored(c.merchant.accountId);
    for (const value of [c.person.email, c.person.alias, c.person.user]) {
      expect(after, value).not.toContain(value.toLowerCase());
    }
  });

  it("lets analysts preview and export in the console, and only owners and admins erase", async () => {
    const owner = await seeded("roles");
    const join = async (name: string, role: Role) => {
      const member = await signedInMerchant(t, `${name}-roles-${kind}@example.com`);
      const invited = await owner.merchant.browser.mutate("team.invite", {
        email: member.email,
        role,
      });
      expect(invited).toMatchObject({ ok: true });
      const mail = await t.smtp.waitFor(member.email, "invited you");
      const token = linkIn(mail, "/invite").searchParams.get("token");
      expect(await member.browser.mutate("team.acceptInvite", { token })).toMatchObject({
        ok: true,
      });
      return member;
    };
    const analyst: Merchant = await join("analyst", "analyst");
    const admin: Merchant = await join("admin", "admin");
    const who = { email: owner.person.email, widen: true };

    const preview = await analyst.browser.query<ErasurePreview>("endUsers.preview", who);
    expect(preview).toMatchObject({ ok: true, data: { counts: { screenings: 2 } } });
    const exported = await analyst.browser.query<EndUserExport>("endUsers.export", who);
    expect(exported).toMatchObject({ ok: true, data: { counts: { screenings: 2 } } });
    expect(await analyst.browser.mutate("endUsers.erase", who)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await analyst.browser.query("endUsers.export", {})).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(
      await t.prisma.allowEntry.count({ where: { accountId: owner.merchant.accountId } }),
    ).toBe(1);

    const erased = await admin.browser.mutate<ErasureResult>("endUsers.erase", who);
    expect(erased).toMatchObject({
      ok: true,
      data: { counts: { screenings: 2, allow_entries: 1 } },
    });
    const audits = await t.prisma.auditEvent.findMany({
      where: { accountId: owner.merchant.accountId, action: { startsWith: "endUsers." } },
    });
    expect(audits.map((e) => e.action).sort()).toEqual(["endUsers.erase", "endUsers.export"]);
    for (const audit of audits) {
      expect(audit.actor).not.toBe(owner.merchant.email);
      for (const value of valuesOf(owner.person))
        expect(JSON.stringify(audit)).not.toContain(value);
    }
  });

  it("offers widening and follows it only when asked: a signup with someone else's email reaches nothing of theirs", async () => {
    const shop = await seeded("forged");
    const victim = shop.person;
    // An attacker signs up once with the victim's email under their own user id.
    const attacker = `attacker-${kind}-1`;
    const forged = await shop.backend.decide({
      type: "signup",
      email: victim.email,
      user_id: attacker,
      user_agent: BROWSER,
    });
    const victimIds = [shop.trial.id, shop.review.id];

    const asked = await exportOf(shop.backend, { user_id: attacker });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.screenings.map((row) => row.id)).toEqual([forged.id]);
    expect(asked.body.widening).toEqual({ emails: [victim.email], user_ids: [] });
    const text = JSON.stringify(asked.body);
    for (const value of [victim.user, victim.device, victim.alias, ...victimIds]) {
      expect(text, value).not.toContain(value);
    }
    // Every section holds only rows about the person asked for.
    expect(asked.body.webhook_deliveries).toEqual([]);
    expect(asked.body.allow_entries).toEqual([]);

    // Erasing the attacker leaves every row of the victim's as it was.
    const victimRows = () =>
      t.prisma.screening.findMany({ where: { id: { in: victimIds } }, orderBy: { id: "asc" } });
    const before = JSON.stringify(await victimRows());
    const erased = await eraseOf(shop.backend, { user_id: attacker });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body).toMatchObject({
      widened: false,
      counts: { screenings: 1, allow_entries: 0 },
    });
    expect(JSON.stringify(await victimRows())).toBe(before);

    // Widened on purpose, the victim's screenings go too; their allow entry, reached only by
    // widening, is never deleted.
    const wide = await eraseOf(shop.backend, {
      user_id: "someone-unrelated",
      email: "x@y.example",
    });
    expect(wide.status).toBe(200);
    const byEmail = await eraseOf(shop.backend, { device_id: victim.device, widen: true });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(200);
    expect(byEmail.body.widened).toBe(true);
    expect(
      await t.prisma.allowEntry.count({
        where: { accountId: shop.merchant.accountId, value: victim.email },
      }),
    ).toBe(1);
  });

  it("matches the spellings the rules fold into one inbox, lists them, and no one else's", async () => {
    const shop = await seeded("spellings");
    const spellings = [`Mia.Fold+shop@Gmail.com`, `miafold@googlemail.com`, `MIA.FOLD@gmail.com`];
    const neighbour = `mia.folds@gmail.com`;
    const ids: string[] = [];
    for (const [i, email] of [...spellings, neighbour].entries()) {
      const answer = await shop.backend.decide({
        type: "signup",
        email,
        user_id: `fold-${kind}-${i}`,
        user_agent: BROWSER,
      });
      ids.push(answer.id);
    }
    const preview = await shop.merchant.browser.query<ErasurePreview>("endUsers.preview", {
      email: "mia.fold@gmail.com",
    });
    expect(preview).toMatchObject({ ok: true });
    const data = (preview as { data: ErasurePreview }).data;
    // Stored lowercased (the screening schema folds an email's case on the way in).
    expect([...data.spellings].sort()).toEqual(
      ["mia.fold+shop@gmail.com", "miafold@googlemail.com"].sort(),
    );
    expect(data.counts.screenings).toBe(3);
    // Their user ids are offered, not matched.
    expect(data.widening.user_ids.sort()).toEqual([0, 1, 2].map((i) => `fold-${kind}-${i}`));

    const erased = await eraseOf(shop.backend, { email: "mia.fold@gmail.com" });
    expect(erased.body.counts.screenings).toBe(3);
    const rows = await t.prisma.screening.findMany({ where: { id: { in: ids } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids.slice(0, 3)) expect(byId.get(id)?.email).toBeNull();
    expect(byId.get(ids[3] as string)?.email).toBe(neighbour);
  });

  // On the embedded database every statement runs in this one process, one at a time, so two
  // erasures never overlap there; on PostgreSQL they do, and the budget holds them.
  it.runIf(kind === "postgres")(
    "runs at most two erasures of one account at once: the others get 429 with Retry-After, and nothing is half-done",
    async () => {
      const shop = await seeded("budget");
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          eraseOf(shop.backend, { email: shop.person.email, widen: true }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(6);
      for (const answer of refused) {
        expect(answer.headers.get("retry-after")).toBe("5");
        expect(answer.body.error?.message).toMatch(/Another erasure of this account is running/);
      }
      // Another account is not held up by this one's erasures.
      const other = await eraseOf(b.backend, { email: "nobody-here@example.com" });
      expect(other.status).toBe(200);
      // Once they end, the next one runs; the person is gone.
      const again = await eraseOf(shop.backend, { email: shop.person.email, widen: true });
      expect(again.status).toBe(200);
      expect(await stored(shop.merchant.accountId)).not.toContain(shop.person.email);
    },
  );

  it.runIf(kind === "postgres")(
    "counts the erasures running on other instances too (advisory locks on PostgreSQL)",
    async () => {
      const shop = await seeded("instances");
      const hashed = (slot: number) => `${shop.merchant.accountId}:${slot}`;
      // Another instance holds both slots: this one must refuse, not queue behind it.
      await t.prisma.$transaction(async (tx) => {
        for (const slot of [0, 1]) {
          const [row] = await tx.$queryRaw<{ ok: boolean }[]>`
            SELECT pg_try_advisory_xact_lock(hashtext('warden.erasure'), hashtext(${hashed(slot)})) AS "ok"`;
          expect(row?.ok).toBe(true);
        }
        const held = await eraseOf(shop.backend, { email: shop.person.email });
        expect(held.status, JSON.stringify(held.body)).toBe(429);
        expect(held.headers.get("retry-after")).toBe("5");
      });
      const freed = await eraseOf(shop.backend, { email: shop.person.email });
      expect(freed.status).toBe(200);
      expect(freed.body.counts.screenings).toBe(1);
    },
  );

  it("classifies every text and JSON column of every account table as personal or not", async () => {
    const columns = await t.prisma.$queryRaw<{ table: string; column: string }[]>`
      SELECT c.table_name AS "table", c.column_name AS "column"
      FROM information_schema.columns c
      WHERE c.table_schema = current_schema()
        AND (c.data_type IN ('text', 'character varying', 'json', 'jsonb')
          OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
        AND EXISTS (SELECT 1 FROM information_schema.columns a
          WHERE a.table_schema = c.table_schema AND a.table_name = c.table_name
            AND a.column_name = 'accountId')
      ORDER BY 1, 2`;
    const unclassified = columns.filter(
      ({ table, column }) => PERSONAL_COLUMNS[table]?.[column] === undefined,
    );
    expect(
      unclassified.map(({ table, column }) => `${table}.${column}`),
      "classify each in server/modules/privacy/personal-columns.ts: personal (and how an erasure clears it) or not (and why)",
    ).toEqual([]);
    // And nothing classified that is not there (a renamed column).
    const present = new Set(columns.map(({ table, column }) => `${table}.${column}`));
    const stale = Object.entries(PERSONAL_COLUMNS).flatMap(([table, cols]) =>
      Object.keys(cols)
        .map((column) => `${table}.${column}`)
        .filter((name) => !present.has(name)),
    );
    expect(stale).toEqual([]);
  });
});
