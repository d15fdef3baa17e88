/**
 * An audit log a person can read, on both databases, over real HTTP: each event names its
 * target as it was when the event was written (a removed member by their email, the new owner,
 * a revoked key by its name, a labelled screening by its kind, decision and score, a removed webhook
 * endpoint by its URL), in the page's API and in the CSV's target_label column; switching
 * accounts is written in the account entered; and the person a team or two-factor change
 * concerns gets an email (removed, made owner, two-factor required, their own second factor
 * turned on), caught by a real SMTP server.
 */
import { describe, expect, it } from "vitest";
import type { AuditEvent, AuditPage } from "../../shared/schemas/audit.ts";
import type { Role } from "../../shared/team/roles.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import type { TrpcResult } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import { type TestApp, testClock } from "../helpers/test-app.ts";
import { totp } from "../helpers/totp.ts";
import { withTestApp } from "../with-test-app.ts";
import { csvRecords } from "./csv-parse.ts";

describe.each(DB_KINDS)("audit labels and team notices (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  withTestApp(kind, { clock }, (app) => {
    t = app;
  });

  /** The call's data; the clock moves on a second, so the log's newest-first order is the calls'. */
  const ok = <T>(result: TrpcResult<T>, what: string): T => {
    expect(result, what).toMatchObject({ ok: true });
    clock.advance(1000);
    return (result as { data: T }).data;
  };
  const userIdOf = async (m: Merchant) =>
    (await t.prisma.user.findUniqueOrThrow({ where: { email: m.email } })).id;

  /** `owner` invites `member` as `role` and the member accepts through the emailed link. */
  async function join(owner: Merchant, member: Merchant, role: Role) {
    ok(await owner.browser.mutate("team.invite", { email: member.email, role }), "invite");
    const mail = await t.smtp.waitFor(member.email, "invited you");
    const token = linkIn(mail, "/invite").searchParams.get("token");
    ok(await member.browser.mutate("team.acceptInvite", { token }), "accept");
  }

  /** The account's events, newest first. */
  async function events(m: Merchant, action?: string): Promise<AuditEvent[]> {
    const query = action ? `?limit=200&action=${encodeURIComponent(action)}` : "?limit=200";
    const page = await m.api.json<AuditPage>(`/api/audit${query}`);
    expect(page.status).toBe(200);
    return page.body.items;
  }

  it("names a removed member, the new owner, a revoked key, a label and a webhook endpoint, in the log and the CSV", async () => {
    const owner = await signedInMerchant(t, `lead-${kind}@example.com`);
    const bob = await signedInMerchant(t, `bob-${kind}@example.com`);
    const ana = await signedInMerchant(t, `ana-${kind}@example.com`);
    await join(owner, bob, "analyst");
    await join(owner, ana, "admin");
    const bobId = await userIdOf(bob);
    const anaId = await userIdOf(ana);

    ok(await owner.browser.mutate("team.changeRole", { user_id: bobId, role: "viewer" }), "role");
    ok(await owner.browser.mutate("team.remove", { user_id: bobId }), "remove");
    // Bob is out, and stays named: the label was kept when the event was written.
    expect(
      await t.prisma.membership.count({ where: { userId: bobId, accountId: owner.accountId } }),
    ).toBe(0);

    const backend = await backendOf(t, owner, "checkout backend");
    const screened = await backend.decide({ type: "signup", email: "enduser@example.net" });
    ok(
      await owner.browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: screened.id,
        label: "fraud",
      }),
      "label",
    );
    ok(await owner.browser.mutate("apiKeys.revoke", { id: backend.keyId }), "revoke");
    const endpoint = ok(
      await owner.browser.mutate<{ id: string }>("webhooks.createEndpoint", {
        url: "https://8.8.8.8/labels-hook",
        events: ["label.created"],
      }),
      "endpoint",
    );
    ok(await owner.browser.mutate("webhooks.removeEndpoint", { id: endpoint.id }), "unhook");
    ok(await owner.browser.mutate("team.transferOwnership", { user_id: anaId }), "transfer");

    const log = await events(owner);
    const first = (action: string) => {
      const found = log.find((e) => e.action === action);
      expect(found, action).toBeDefined();
      return found as AuditEvent;
    };
    expect(first("team.remove")).toMatchObject({ target: bobId, target_label: bob.email });
    expect(first("team.changeRole")).toMatchObject({ target: bobId, target_label: bob.email });
    expect(first("team.transferOwnership")).toMatchObject({
      target: anaId,
      target_label: ana.email,
    });
    expect(first("team.invite").target_label).toBe(ana.email);
    expect(first("team.acceptInvite").target_label).toBe(`invitation to ${ana.email}`);
    expect(first("apiKeys.create").target_label).toBe("API key checkout backend");
    expect(first("apiKeys.revoke")).toMatchObject({
      target: backend.keyId,
      target_label: "API key checkout backend",
    });
    const label = first("labels.add");
    expect(label.target).toBe(screened.id);
    expect(label.target_label).toBe(
      `signup screening (${{ allow: "allowed", review: "sent to review", block: "blocked" }[screened.decision]}, score ${screened.score})`,
    );
    // The end user's email is a value an erasure must find: the label never holds it.
    expect(label.target_label).not.toContain("enduser");
    expect(first("webhooks.createEndpoint").target_label).toBe("https://8.8.8.8/labels-hook");
    // Read before the endpoint was deleted: the label outlives it.
    expect(first("webhooks.removeEndpoint")).toMatchObject({
      target: endpoint.id,
      target_label: "https://8.8.8.8/labels-hook",
    });
    expect(await t.prisma.webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(0);
    // An event naming nothing has no label.
    expect(first("auth.sign_in").target_label).toBeNull();

    // The CSV keeps its columns and appends the label.
    const csv = await owner.api.request("/api/audit.csv?action=team.,apiKeys.");
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(
      "at,actor_kind,actor,ip,action,target,before,after,target_label",
    );
    const removed = csvRecords(text).find((row) => row.action === "team.remove");
    expect(removed).toMatchObject({ target: bobId, target_label: bob.email });
    const revoked = csvRecords(text).find((row) => row.action === "apiKeys.revoke");
    expect(revoked?.target_label).toBe("API key checkout backend");

    // The people it concerns were told: Bob that he is out, Ana that she owns the account.
    const out = await t.smtp.waitFor(bob.email, "You were removed from");
    expect(out.text).toContain(`${owner.email} removed you from`);
    const owns = await t.smtp.waitFor(ana.email, "You are now the owner of");
    expect(owns.text).toContain(`${owner.email} made you the owner of`);
    expect(owns.text).toContain(`${t.baseUrl}/homepage/team`);
    // Nobody else got either.
    const told = t.smtp.messages.filter((m) => /removed from|now the owner/.test(m.subject));
    expect(told.map((m) => m.to)).toEqual([
      expect.stringContaining(bob.email),
      expect.stringContaining(ana.email),
    ]);
  });

  it("names a bulk label and its undo by how many, of what, as what", async () => {
    const m = await signedInMerchant(t, `bulk-${kind}@example.com`);
    const backend = await backendOf(t, m);
    const ids: string[] = [];
    for (const email of ["a@example.net", "b@example.net"]) {
      ids.push((await backend.decide({ type: "signup", email })).id);
    }
    const batch = ok(
      await m.browser.mutate<{ batch_id: string }>("labels.bulk", {
        subject_kind: "screening",
        subject_ids: ids,
        label: "fraud",
      }),
      "bulk",
    );
    ok(await m.browser.mutate("labels.undo", { batch_id: batch.batch_id }), "undo");
    const [undone, bulk] = await events(m, "labels.");
    expect(bulk).toMatchObject({
      action: "labels.bulk",
      target_label: "bulk label of 2 screenings as fraud",
    });
    // Read before the undo took the labels away.
    expect(undone).toMatchObject({
      action: "labels.undo",
      target: batch.batch_id,
      target_label: "bulk label of 2 screenings as fraud",
    });
  });

  it("looks up no id it could not store: a NUL in one is the schema's 400, not a 500", async () => {
    const m = await signedInMerchant(t, `nul-${kind}@example.com`);
    for (const [path, input] of [
      ["webhooks.removeEndpoint", { id: "a\u0000b" }],
      ["labels.add", { subject_kind: "screening", subject_id: "a\u0000b", label: "fraud" }],
      ["team.remove", { user_id: "a\u0000b" }],
      ["apiKeys.revoke", { id: "a\u0000b" }],
    ] as const) {
      const result = await m.browser.mutate(path, input);
      expect(result, path).toMatchObject({ ok: false, status: 400 });
    }
  });

  it("writes a switch in the account entered, naming it, and none in the account left", async () => {
    const owner = await signedInMerchant(t, `shop-${kind}@example.com`);
    const member = await signedInMerchant(t, `helper-${kind}@example.com`);
    await join(owner, member, "analyst");
    ok(await member.browser.mutate("auth.switchAccount", { account_id: member.accountId }), "home");
    ok(await member.browser.mutate("auth.switchAccount", { account_id: owner.accountId }), "in");

    const entered = await events(owner, "auth.switchAccount");
    expect(entered).toHaveLength(1);
    expect(entered[0]).toMatchObject({
      actor: member.email,
      target: owner.accountId,
      target_label: expect.stringMatching(/\S/),
    });
    const home = await events(member, "auth.switchAccount");
    // The switch home is written at home, naming it; the switch away is not.
    expect(home).toHaveLength(1);
    expect(home[0]).toMatchObject({ actor: member.email, target: member.accountId });
    // A switch to an account the person is not in is refused and written nowhere.
    const stranger = await signedInMerchant(t, `stranger-${kind}@example.com`);
    const refused = await member.browser.mutate("auth.switchAccount", {
      account_id: stranger.accountId,
    });
    expect(refused.ok).toBe(false);
    expect(await events(stranger, "auth.switchAccount")).toEqual([]);
  });

  it("emails members without a second factor when it becomes required, and a person whose own second factor changes", async () => {
    const owner = await signedInMerchant(t, `secure-${kind}@example.com`);
    const member = await signedInMerchant(t, `member-${kind}@example.com`);
    await join(owner, member, "viewer");

    // The owner turns on their own second factor first: a mail says so.
    const begun = ok(
      await owner.browser.mutate<{ secret: string }>("twoFactor.begin", {
        password: owner.password,
      }),
      "begin",
    );
    ok(
      await owner.browser.mutate("twoFactor.confirm", { code: totp(begun.secret, clock.now()) }),
      "confirm",
    );
    const on = await t.smtp.waitFor(owner.email, "Two-factor sign-in is on");
    expect(on.text).toContain(`${t.baseUrl}/forgot-password`);

    const security = ok(await owner.browser.query<object>("security.get"), "security");
    ok(
      await owner.browser.mutate("security.put", { ...security, require_two_factor: true }),
      "require",
    );
    const required = await t.smtp.waitFor(member.email, "now requires two-factor sign-in");
    expect(required.text).toContain(`${t.baseUrl}/homepage/settings#two-factor`);
    // The owner has a second factor already: no such mail for them.
    expect(
      t.smtp.messages.filter(
        (m) => m.to.includes(owner.email) && m.subject.includes("requires two-factor"),
      ),
    ).toEqual([]);
    // Saving it again, still required, mails no one again.
    ok(
      await owner.browser.mutate("security.put", { ...security, require_two_factor: true }),
      "again",
    );
    await t.app.services.outbox.flush();
    expect(
      t.smtp.messages.filter((m) => m.to.includes(member.email) && m.subject.includes("requires")),
    ).toHaveLength(1);
  });
});
