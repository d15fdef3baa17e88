/**
 * The merchant's own account over real HTTP, on the embedded database and on PostgreSQL: its
 * configuration exported as one JSON document without a secret; that document imported into a
 * fresh account gives the same export back; a bad document is a 400 naming the field and
 * changes nothing, even when it fails inside the import's transaction; who may export, import
 * and delete; and deleting an account removes every row it owned in every table, keeps a
 * member who belongs elsewhere (moved to their other account), deletes a sole member, refuses
 * a wrong password or confirmation, and answers two deletes at once with one 200. An imported
 * webhook endpoint's deliveries are signed with the secret the import showed. An import's
 * audit event holds the sections it carried, before and after, without a secret.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/client/index.ts";
import type { AccountConfig, ConfigImported } from "../../shared/schemas/account-config.ts";
import { type ImportPreview, MUST_ENROL_WARNING } from "../../shared/schemas/import-preview.ts";
import { DEFAULT_RULES } from "../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../shared/schemas/templates.ts";
import type { Role } from "../../shared/team/roles.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient, type TrpcResult } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import { startTestApp, type TestApp, testClock } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_ENDPOINTS = 4;

type Issue = { path: string; message: string };
type ErrorBody = { error: { message: string; issues?: Issue[] } };

/** Every model of prisma/schema.prisma with an accountId column, as Prisma delegates name it. */
async function modelsWithAccountId(): Promise<string[]> {
  const schema = await readFile(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
  const models = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  return models
    .filter(([, , body]) => /^\s+accountId\s/m.test(body ?? ""))
    .map(([, name]) => `${name?.[0]?.toLowerCase()}${name?.slice(1)}`);
}

/** A secret or its hint: a Stripe key (sk_/rk_/pk_ are keys; risk_level is not), whsec_, wdn_. */
const SECRET = /(^|[^a-z])(sk|rk)_(test|live)|whsec_|wdn_(sk|pk)_|…/;

describe.each(DB_KINDS)("the account's own data (%s)", (kind) => {
  let t: TestApp;
  const clock = testClock(Date.parse("2026-11-20T10:00:00Z"));
  beforeAll(async () => {
    t = await startTestApp(kind, {
      clock,
      env: { WEBHOOK_ENDPOINTS_PER_ACCOUNT: String(MAX_ENDPOINTS) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  let seq = 0;
  const merchant = (name: string) => {
    // Signups from one address are limited to 10 an hour: let an hour pass now and then.
    if (++seq % 8 === 0) clock.advance(61 * MINUTE);
    return signedInMerchant(t, `${name}-${seq}-${kind}@example.com`);
  };
  const ok = <T>(result: TrpcResult<T>, what: string): T => {
    expect(result, what).toMatchObject({ ok: true });
    return (result as { data: T }).data;
  };
  const userOf = (m: Merchant) => t.prisma.user.findUnique({ where: { email: m.email } });

  /** `member` joins `owner`'s account as `role` through an emailed invitation. */
  async function join(owner: Merchant, member: Merchant, role: Role) {
    const seen = t.smtp.messages.filter((m) => m.to.includes(member.email)).length;
    ok(await owner.browser.mutate("team.invite", { email: member.email, role }), "invite");
    const deadline = Date.now() + 5000;
    let mails = t.smtp.messages.filter((m) => m.to.includes(member.email));
    while (mails.length <= seen && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      mails = t.smtp.messages.filter((m) => m.to.includes(member.email));
    }
    const token = linkIn(mails.at(-1) as never, "/invite").searchParams.get("token");
    ok(await member.browser.mutate("team.acceptInvite", { token }), "accept");
  }

  /** Sets every section of `m`'s configuration through the console's own procedures. */
  async function configure(m: Merchant) {
    const seed = async (path: string, input: unknown) =>
      ok(await m.browser.mutate(path, input), path);
    await seed("rules.put", { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 55 });
    await seed("templates.put", { ...DEFAULT_TEMPLATES, template_one_human_one_trial: true });
    await seed("ruleSettings.put", { rule_signup_velocity: { per_ip_per_hour: 7 } });
    await seed("scoreThresholds.put", { thresholds: { signup: { review: 40, block: 80 } } });
    await seed("blocklist.put", { countries: ["KP", "IR"], email_providers: ["spam.example"] });
    await seed("allowList.add", { kind: "user_id", value: "vip-1" });
    await seed("allowList.add", {
      kind: "email",
      value: "Friend@Example.com",
      note: "our friend",
      expires_at: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
    });
    await seed("allowedOrigins.set", { origins: ["https://shop.example"] });
    await seed("settings.put", {
      app_name: `Shop of ${m.email}`,
      contact_email: "ops@shop.example",
      stripe_secret: "",
      stripe_publishable: "pk_test_Publishable12345",
      stripe_webhook_secret: "whsec_Stripesigningsecret123",
    });
    await seed("webhooks.createEndpoint", {
      url: "https://8.8.8.8/hook",
      events: ["screening.blocked", "label.created"],
    });
    await seed("security.put", { require_two_factor: false, audit_retention_days: 400 });
    // Retention has its own procedures (another section of Settings); the columns are set here.
    await t.prisma.account.update({
      where: { id: m.accountId },
      data: { screeningRetentionDays: 30, webhookDeliveryRetentionDays: 7 },
    });
  }

  const exportOf = async (m: Merchant) => {
    const res = await m.api.json<AccountConfig>("/api/account/config");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const importInto = (m: Merchant, body: unknown) =>
    m.api.json<ConfigImported & ErrorBody>("/api/account/config", { body });
  const withoutTime = ({ exported_at: _at, ...rest }: AccountConfig) => rest;

  it("exports every section as its PUT takes it, with no secret and no hint of one", async () => {
    const a = await merchant("exporter");
    await configure(a);
    await backendOf(t, a, "a backend key");
    const res = await a.api.request("/api/account/config");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(SECRET);
    expect(text).not.toContain("Stripesigningsecret");
    const doc = JSON.parse(text) as AccountConfig;
    expect(doc).toEqual({
      warden_config: 1,
      exported_at: clock.now().toISOString(),
      rules: { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 55 },
      templates: { ...DEFAULT_TEMPLATES, template_one_human_one_trial: true },
      rule_settings: { rule_signup_velocity: { per_ip_per_hour: 7 } },
      score_thresholds: { signup: { review: 40, block: 80 } },
      blocklist: { countries: ["KP", "IR"], email_providers: ["spam.example"] },
      allow_list: [
        {
          kind: "email",
          value: "friend@example.com",
          note: "our friend",
          expires_at: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
        },
        { kind: "user_id", value: "vip-1", note: null, expires_at: null },
      ],
      allowed_origins: ["https://shop.example"],
      settings: {
        app_name: `Shop of ${a.email}`,
        contact_email: "ops@shop.example",
        stripe_publishable: "pk_test_Publishable12345",
      },
      webhook_endpoints: [
        { url: "https://8.8.8.8/hook", events: ["screening.blocked", "label.created"] },
      ],
      security: { require_two_factor: false, audit_retention_days: 400 },
      retention: {
        screenings: 30,
        collector_tokens: null,
        identities: null,
        webhook_deliveries: 7,
        charges_personal: null,
      },
    });
    // The console's procedure answers the same document, and the export is in the audit log.
    const viaConsole = ok(await a.browser.query<AccountConfig>("account.exportConfig"), "export");
    expect(withoutTime(viaConsole)).toEqual(withoutTime(doc));
    const events = await t.prisma.auditEvent.findMany({
      where: { accountId: a.accountId, action: "account.exportConfig" },
    });
    expect(events.length).toBe(2);
  });

  it("imports A's export into a fresh account B, whose export is then A's, once", async () => {
    const a = await merchant("source");
    await configure(a);
    const exported = await exportOf(a);
    const b = await merchant("target");
    const before = await exportOf(b);
    // B's policy is cached now: the import must tell the cache (every instance's).
    expect((await t.app.services.policy.load(b.accountId)).rules.risk_level_threshold).toBe(70);

    // Ids from elsewhere are ignored: they name A, and A is not touched.
    const withIds = {
      ...exported,
      account_id: a.accountId,
      allow_list: exported.allow_list.map((e) => ({
        ...e,
        id: "00000000-0000-4000-8000-000000000000",
        account_id: a.accountId,
      })),
    };
    const res = await importInto(b, withIds);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Its audit event holds each section the file carried: B's before, the imported after,
    // as the export shapes them (no secret, no hint of one).
    const [imported] = await t.prisma.auditEvent.findMany({
      where: { accountId: b.accountId, action: "account.importConfig" },
    });
    const { warden_config: _v, ...sectionsBefore } = withoutTime(before);
    const { warden_config: _w, ...sectionsImported } = withoutTime(exported);
    expect(imported?.before).toEqual(sectionsBefore);
    expect(imported?.after).toEqual(sectionsImported);
    expect(JSON.stringify(imported)).not.toMatch(SECRET);
    for (const [section, lines] of Object.entries(res.body.changes)) {
      expect(lines.length, `${section} changed`).toBeGreaterThan(0);
    }
    // In the console's words: the rule's name and on/off, not its key and true/false.
    expect(res.body.changes.rules).toContain("Risk level threshold: 70 → 55");
    expect(res.body.changes.rules).toContain("Too high risk level with threshold: off → on");
    expect(res.body.changes.templates).toContain("One Human One Trial: off → on");
    expect(res.body.changes.blocklist).toContain("country added: KP");
    expect(res.body.webhook_secrets).toHaveLength(1);
    expect(res.body.webhook_secrets[0]?.secret).toMatch(/^whsec_/);
    expect(res.body.webhook_secrets[0]?.url).toBe("https://8.8.8.8/hook");

    const after = await exportOf(b);
    expect(withoutTime(after)).toEqual(withoutTime(exported));
    expect(withoutTime(after)).not.toEqual(withoutTime(before));
    expect(withoutTime(await exportOf(a))).toEqual(withoutTime(exported));
    // B's endpoint has a secret of its own, and the imported allow entries are B's.
    const [aHook, bHook] = await Promise.all(
      [a, b].map((m) =>
        t.prisma.webhookEndpoint.findFirstOrThrow({ where: { accountId: m.accountId } }),
      ),
    );
    expect(bHook?.secretCipher).not.toBe(aHook?.secretCipher);
    const bEntries = await t.prisma.allowEntry.findMany({ where: { accountId: b.accountId } });
    expect(bEntries.map((e) => e.addedBy)).toEqual([b.email, b.email]);
    expect(await t.prisma.allowEntry.count({ where: { accountId: a.accountId } })).toBe(2);
    // The policy was told: B's next screening is judged under the imported rules.
    await expect
      .poll(async () => (await t.app.services.policy.load(b.accountId)).rules.risk_level_threshold)
      .toBe(55);

    // The same file again: nothing changes, no endpoint twice, no secret shown.
    const again = await importInto(b, exported);
    expect(again.status).toBe(200);
    expect(Object.values(again.body.changes).flat()).toEqual([]);
    expect(again.body.webhook_secrets).toEqual([]);
    expect(await t.prisma.webhookEndpoint.count({ where: { accountId: b.accountId } })).toBe(1);
    const events = await t.prisma.auditEvent.findMany({
      where: { accountId: b.accountId, action: "account.importConfig" },
    });
    expect(events.length).toBe(2);

    // A file with one section: its event holds that section alone.
    const blocklist = { countries: ["FR"], email_providers: [] };
    expect((await importInto(b, { warden_config: 1, blocklist })).status).toBe(200);
    const partial = await t.prisma.auditEvent.findMany({
      where: { accountId: b.accountId, action: "account.importConfig" },
    });
    const one = partial.find((e) => Object.keys(e.before ?? {}).length === 1);
    expect(one).toMatchObject({ before: { blocklist: exported.blocklist }, after: { blocklist } });
    expect(one?.after).toEqual({ blocklist });
  });

  it("previews an import in words, with what to know first, and writes nothing", async () => {
    const a = await merchant("previewer");
    // A teammate without a second factor: requiring one concerns them too.
    const mate = await merchant("previewer-mate");
    const [aUser, mateUser] = await Promise.all([userOf(a), userOf(mate)]);
    if (!aUser || !mateUser) throw new Error("the merchants' users are missing");
    await t.prisma.membership.create({
      data: { accountId: a.accountId, userId: mateUser.id, role: "viewer" },
    });
    const before = withoutTime(await exportOf(a));
    const preview = (body: unknown) =>
      a.api.json<ImportPreview & ErrorBody>("/api/account/config/preview", { body });
    const doc = {
      warden_config: 1,
      rules: { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 55 },
      security: { require_two_factor: true, audit_retention_days: 60 },
      retention: { screenings: 30, identities: null },
      webhook_endpoints: [{ url: "https://8.8.8.8/preview-hook", events: ["label.created"] }],
    };
    const res = await preview(doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warnings).toEqual([
      MUST_ENROL_WARNING,
      "1 other member has no two-factor sign-in yet and will have to set it up before using this account again.",
      "Audit log events older than 60 days will be deleted.",
      "Screenings older than 30 days will be deleted.",
      "1 new webhook endpoint will start receiving events; its signing secret is shown once, right after importing.",
    ]);
    expect(res.body.changes.security).toEqual([
      "Require two-factor sign-in: off → on",
      "Keep audit log events (days): 365 → 60",
    ]);
    expect(res.body.changes.rules).toEqual([
      "Too high risk level with threshold: off → on",
      "Risk level threshold: 70 → 55",
    ]);
    expect(res.body.changes.retention).toEqual(["Keep Screenings (days): default → 30"]);
    expect(res.body.changes.webhook_endpoints).toEqual([
      "added https://8.8.8.8/preview-hook (label.created)",
    ]);
    expect(res.body.changes.blocklist).toEqual([]);
    // Nothing is written, and no event is kept of a preview.
    expect(withoutTime(await exportOf(a))).toEqual(before);
    expect(
      await t.prisma.auditEvent.count({
        where: { accountId: a.accountId, action: { startsWith: "account.previewImport" } },
      }),
    ).toBe(0);

    // Once the importer and every member sign in with a second factor, requiring it warns of
    // nothing; a file the import refuses, the preview refuses the same way.
    await t.prisma.user.updateMany({
      where: { id: { in: [aUser.id, mateUser.id] } },
      data: { totpEnabledAt: clock.now() },
    });
    const settled = await preview({ warden_config: 1, security: doc.security });
    expect(settled.body.warnings).toEqual(["Audit log events older than 60 days will be deleted."]);
    const bad = await preview({ warden_config: 1, security: { require_two_factor: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues?.[0]).toMatchObject({ path: "security.require_two_factor" });
  });

  it("refuses a bad document with a 400 naming the field, and changes nothing", async () => {
    const a = await merchant("validator");
    await configure(a);
    const doc = await exportOf(a);
    const b = await merchant("untouched");
    const before = withoutTime(await exportOf(b));
    const issueOf = async (body: unknown) => {
      const res = await importInto(b, body);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
      return res.body.error.issues?.[0];
    };
    expect(await issueOf({ ...doc, warden_config: 2 })).toMatchObject({ path: "warden_config" });
    expect(await issueOf({ rules: doc.rules })).toMatchObject({ path: "warden_config" });
    expect(await issueOf({ ...doc, rules: { ...doc.rules, rule_made_up: true } })).toEqual({
      path: "rules",
      message: "Unknown key: rule_made_up",
    });
    expect(
      await issueOf({
        ...doc,
        allow_list: [{ kind: "email", value: "not an email", note: null, expires_at: null }],
      }),
    ).toMatchObject({ path: "allow_list.0.value" });
    const past = { kind: "user_id", value: "old", note: null, expires_at: "2020-01-01T00:00:00Z" };
    expect(await issueOf({ ...doc, allow_list: [past] })).toMatchObject({
      path: "allow_list.0.expires_at",
    });
    // A webhook URL Warden may not call, late in the document: nothing before it is applied.
    expect(
      await issueOf({
        ...doc,
        webhook_endpoints: [{ url: "http://127.0.0.1:9/hook", events: ["label.created"] }],
      }),
    ).toMatchObject({ path: "webhook_endpoints.0.url" });
    // Text PostgreSQL cannot store (NUL, an unpaired surrogate), anywhere in the file, in a
    // value or a key, in a section or beside them: a 400 naming where it is, never a 500.
    const unstorable = "must not contain NUL characters or unpaired surrogates";
    const allowed = { kind: "user_id", value: "vip", note: "note\u0000", expires_at: null };
    const cases: [unknown, string][] = [
      [{ ...doc, settings: { ...doc.settings, app_name: "Shop\u0000" } }, "settings.app_name"],
      [{ ...doc, allow_list: [allowed] }, "allow_list.0.note"],
      [
        { ...doc, blocklist: { ...doc.blocklist, countries: ["K\u0000"] } },
        "blocklist.countries.0",
      ],
      [{ ...doc, rules: { ...doc.rules, "rule\u0000": true } }, "rules.rule\u0000"],
      [{ ...doc, exported_at: "2026\u0000" }, "exported_at"],
      [{ ...doc, comment: "from\ud800 staging" }, "comment"],
    ];
    for (const [body, path] of cases) {
      expect(await issueOf(body), path).toEqual({ path, message: unstorable });
    }
    // Too many entries, and a file past the size limit.
    const many = Array.from({ length: 5001 }, (_, i) => ({ kind: "user_id", value: `u${i}` }));
    expect(await issueOf({ warden_config: 1, allow_list: many })).toMatchObject({
      path: "allow_list",
    });
    const huge = await importInto(b, { warden_config: 1, exported_at: "x".repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(withoutTime(await exportOf(b))).toEqual(before);
  });

  it("rolls back every section when the import fails inside its transaction", async () => {
    const b = await merchant("rollback");
    const before = withoutTime(await exportOf(b));
    const endpoints = Array.from({ length: MAX_ENDPOINTS + 1 }, (_, i) => ({
      url: `https://8.8.8.8/hook-${i}`,
      events: ["label.created"],
    }));
    const res = await importInto(b, {
      warden_config: 1,
      rules: { ...DEFAULT_RULES, rule_ip: true },
      blocklist: { countries: ["KP"], email_providers: [] },
      allow_list: [{ kind: "user_id", value: "would-be-vip" }],
      security: { require_two_factor: false, audit_retention_days: 999 },
      // The last section passes validation but fails in the transaction: past the endpoint cap.
      webhook_endpoints: endpoints,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.issues?.[0]?.path).toBe("webhook_endpoints");
    expect(withoutTime(await exportOf(b))).toEqual(before);
    expect(await t.prisma.allowEntry.count({ where: { accountId: b.accountId } })).toBe(0);
    expect(await t.prisma.webhookEndpoint.count({ where: { accountId: b.accountId } })).toBe(0);
  });

  it("lets admins export, and only owners import and delete", async () => {
    const owner = await merchant("roles-owner");
    const members: Record<string, Merchant> = {};
    for (const role of ["admin", "analyst", "viewer"] as const) {
      members[role] = await merchant(`roles-${role}`);
      await join(owner, members[role] as Merchant, role);
    }
    const doc = await exportOf(owner);
    // Each member's REST session still acts in their own account: a bearer for the joined one.
    const status = async (m: Merchant) => {
      const session = await t.app.services.sessions.create(
        ((await userOf(m)) as { id: string }).id,
        owner.accountId,
      );
      const api = new TestClient(t.baseUrl, { authorization: `Bearer ${session.token}` });
      return {
        export: (await api.json("/api/account/config")).status,
        import: (await api.json("/api/account/config", { body: doc })).status,
        delete: (
          await api.json("/api/account", {
            method: "DELETE",
            body: { confirm: "delete", password: m.password },
          })
        ).status,
      };
    };
    expect(await status(members.admin as Merchant)).toEqual({
      export: 200,
      import: 403,
      delete: 403,
    });
    expect(await status(members.analyst as Merchant)).toEqual({
      export: 403,
      import: 403,
      delete: 403,
    });
    expect(await status(members.viewer as Merchant)).toEqual({
      export: 403,
      import: 403,
      delete: 403,
    });
    // The console's procedures answer alike (the browser session acts in the joined account).
    const analyst = members.analyst as Merchant;
    expect(await analyst.browser.query("account.exportConfig")).toMatchObject({ status: 403 });
    const admin = members.admin as Merchant;
    expect(await admin.browser.mutate("account.importConfig", doc)).toMatchObject({ status: 403 });
    expect(
      await admin.browser.mutate("account.delete", { confirm: "delete", password: admin.password }),
    ).toMatchObject({ status: 403 });
    expect(ok(await admin.browser.query("account.exportConfig"), "admin export")).toMatchObject({
      warden_config: 1,
    });
    expect(await t.prisma.account.count({ where: { id: owner.accountId } })).toBe(1);
  });

  it("deletes every row of the account, keeps members who belong elsewhere, ends the caller's sessions", async () => {
    const owner = await merchant("leaving");
    const other = await merchant("other-shop");
    const member = await merchant("member");
    await configure(owner);
    // The owner also works in another account; a member of theirs has a home of their own.
    await join(other, owner, "analyst");
    ok(await owner.browser.mutate("auth.switchAccount", { account_id: owner.accountId }), "switch");
    await join(owner, member, "admin");
    ok(
      await member.browser.mutate("auth.switchAccount", { account_id: owner.accountId }),
      "switch",
    );
    await owner.browser.mutate("team.invite", { email: "pending@example.com", role: "viewer" });
    // Data of every kind: screenings (and their counting identities), a label, demo charges.
    const backend = await backendOf(t, owner);
    const screened = await backend.decide({
      type: "signup",
      email: "end@user.example",
      ip: "8.8.4.4",
    });
    ok(
      await owner.browser.mutate("labels.add", {
        subject_kind: "screening",
        subject_id: screened.id,
        label: "fraud",
      }),
      "label",
    );
    ok(await owner.browser.mutate("stripe.loadDemo"), "demo");
    const models = await modelsWithAccountId();
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const model of models) {
        const delegate = (
          t.prisma as unknown as Record<string, { count: (q: object) => Promise<number> }>
        )[model];
        out[model] = await (delegate as { count: (q: object) => Promise<number> }).count({
          where: { accountId: owner.accountId },
        });
      }
      return out;
    };
    const before = await counts();
    for (const model of [
      "screening",
      "screeningIdentity",
      "label",
      "transaction",
      "auditEvent",
      "membership",
      "invite",
      "allowEntry",
      "webhookEndpoint",
      "apiKey",
    ]) {
      expect(before[model], `${model} seeded`).toBeGreaterThan(0);
    }

    // A wrong confirmation or password is a 400 on its field, and deletes nothing.
    const del = (m: Merchant, body: unknown) =>
      m.api.json<ErrorBody & { ok?: boolean }>("/api/account", { method: "DELETE", body });
    const wrongName = await del(owner, { confirm: "some other shop", password: owner.password });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error.issues?.[0]?.path).toBe("confirm");
    const wrongPassword = await del(owner, { confirm: "delete", password: "not the password" });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.issues?.[0]?.path).toBe("password");
    expect(await counts()).toEqual(before);

    // The account's name works as the confirmation, case aside.
    const deleted = await owner.browser.mutate("account.delete", {
      confirm: `shop of ${owner.email}`.toUpperCase(),
      password: owner.password,
    });
    expect(deleted).toMatchObject({ ok: true, data: { ok: true } });
    expect(await t.prisma.account.count({ where: { id: owner.accountId } })).toBe(0);
    const after = await counts();
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);

    // The owner survives in their other account, with its membership; their sessions ended.
    const ownerUser = await userOf(owner);
    expect(ownerUser?.accountId).toBe(other.accountId);
    expect(
      await t.prisma.membership.findMany({
        where: { userId: ownerUser?.id },
        select: { accountId: true, role: true },
      }),
    ).toEqual([{ accountId: other.accountId, role: "analyst" }]);
    expect(await t.prisma.session.count({ where: { userId: ownerUser?.id } })).toBe(0);
    expect(ok(await owner.browser.query("auth.me"), "me")).toBeNull();
    expect((await owner.api.json("/api/account/config")).status).toBe(401);
    const relogin = new TestClient(t.baseUrl);
    ok(
      await relogin.mutate("auth.login", { email: owner.email, password: owner.password }),
      "login",
    );
    expect(ok(await relogin.query("auth.me"), "me")).toMatchObject({ accountId: other.accountId });
    // The member's session moves on to their own account; the other account is untouched.
    expect(ok(await member.browser.query("auth.me"), "me")).toMatchObject({
      accountId: member.accountId,
    });
    expect(await t.prisma.account.count({ where: { id: other.accountId } })).toBe(1);
  });

  it("deletes a sole member with their account, and limits password guesses", async () => {
    const alone = await merchant("alone");
    for (let i = 0; i < 5; i++) {
      const res = await alone.api.json("/api/account", {
        method: "DELETE",
        body: { confirm: "delete", password: `guess ${i}` },
      });
      expect(res.status).toBe(400);
    }
    const limited = await alone.api.json("/api/account", {
      method: "DELETE",
      body: { confirm: "delete", password: alone.password },
    });
    expect(limited.status).toBe(429);
    clock.advance(16 * MINUTE);
    const res = await alone.api.json("/api/account", {
      method: "DELETE",
      body: { confirm: "delete", password: alone.password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await userOf(alone)).toBeNull();
    expect(await t.prisma.account.count({ where: { id: alone.accountId } })).toBe(0);
    const login = await new TestClient(t.baseUrl).mutate("auth.login", {
      email: alone.email,
      password: alone.password,
    });
    expect(login).toMatchObject({ ok: false });
  });

  it("answers two deletes at once with one 200 and one 401 or 404, never a 500", async () => {
    const owner = await merchant("twice");
    const body = { confirm: "delete", password: owner.password };
    const second = new TestClient(t.baseUrl, { authorization: `Bearer ${owner.token}` });
    const statuses = (
      await Promise.all([
        owner.api.json("/api/account", { method: "DELETE", body }),
        second.json("/api/account", { method: "DELETE", body }),
      ])
    ).map((r) => r.status);
    expect(statuses.sort()).toSatisfy(
      (s: number[]) => s[0] === 200 && (s[1] === 401 || s[1] === 404),
    );
    expect(await t.prisma.account.count({ where: { id: owner.accountId } })).toBe(0);
  });
});

describe.each(DB_KINDS)("an imported webhook endpoint (%s)", (kind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp(kind, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("gets deliveries signed with the secret the import showed once", async () => {
    const m = await signedInMerchant(t, `hooked-${kind}@example.com`);
    const res = await m.api.json<ConfigImported>("/api/account/config", {
      body: {
        warden_config: 1,
        webhook_endpoints: [{ url: receiver.url, events: ["label.created"] }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const secret = res.body.webhook_secrets[0]?.secret ?? "";
    const backend = await backendOf(t, m);
    const screened = await backend.decide({ type: "signup", email: "x@user.example" });
    const label = await m.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: screened.id,
      label: "fraud",
    });
    expect(label).toMatchObject({ ok: true });
    await t.app.services.webhooks.flush();
    const delivery = receiver.received.at(-1);
    expect(delivery, "a delivery").toBeDefined();
    const header = delivery?.headers["warden-signature"] as string;
    expect(await verifyWebhook(delivery?.body ?? "", header, secret)).toMatchObject({ ok: true });
  });
});
