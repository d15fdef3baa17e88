/**
 * Isolation sweep: walks the app router's procedure list and calls each one as merchant B,
 * signed in, after seeding merchant A with data of every kind. B's answers never carry A's
 * data, and A's stored data is byte-for-byte the same after every call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEIGHTS } from "../server/engine/default-weights.ts";
import { appRouter } from "../server/transport/trpc/app.router.ts";
import { DEFAULT_RULES } from "../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../shared/schemas/templates.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { MERCHANT_PASSWORD, type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

const B_EMAIL = "merchant-b@b-side.example";

/**
 * B's input for each procedure: valid, so each call gets past validation to the code that
 * must scope by B's account. A procedure added without an entry here fails the sweep.
 */
const INPUTS: Record<string, unknown> = {
  "auth.me": undefined,
  "auth.signup": { email: "another-b@b-side.example", password: MERCHANT_PASSWORD },
  "auth.confirmEmail": { tokenHash: "not-a-token", email: B_EMAIL },
  "auth.login": { email: B_EMAIL, password: MERCHANT_PASSWORD },
  "auth.logout": undefined,
  "auth.requestPasswordReset": { email: B_EMAIL },
  "auth.checkResetLink": { tokenHash: "not-a-token", email: B_EMAIL },
  "auth.resetPassword": { tokenHash: "not-a-token", email: B_EMAIL, password: "b new password" },
  // B asks to act in A's account: refused, B is no member there.
  "auth.accounts": undefined,
  "auth.switchAccount": { account_id: "set in beforeAll" },
  "auth.createAccount": { name: "B side app" },
  // B's session owes no second factor, and B has none: each is refused with a 400.
  "auth.verifyTwoFactor": { code: "123456" },
  "twoFactor.status": undefined,
  "twoFactor.begin": { password: MERCHANT_PASSWORD },
  "twoFactor.confirm": { code: "123456" },
  "twoFactor.disable": { password: MERCHANT_PASSWORD, code: "123456" },
  "twoFactor.regenerateCodes": { code: "123456" },
  "audit.list": { action: "rules.,auth.", limit: 200 },
  "team.get": undefined,
  "team.invite": { email: "b-invitee@b-side.example", role: "analyst" },
  // A's invitation and A's owner: 404 for B.
  "team.revokeInvite": { id: "set in beforeAll" },
  "team.changeRole": { user_id: "set in beforeAll", role: "viewer" },
  "team.remove": { user_id: "set in beforeAll" },
  // B is its account's last owner: 409.
  "team.leave": undefined,
  "team.transferOwnership": { user_id: "set in beforeAll" },
  // Not A's token either: whoever holds an invitation's link may learn whom it invites (the
  // preview shows it, the refusal of a wrong email names it); test/team covers that refusal.
  "team.acceptInvite": { token: "not-a-token" },
  // Not A's token: a preview shows the account's name to whoever holds the link, by design.
  "team.invitePreview": { token: "not-a-token" },
  // Not A's token: joining through an unknown link is a 404.
  "team.joinInvite": { token: "not-a-token", password: MERCHANT_PASSWORD },
  "team.accountName": undefined,
  "team.renameAccount": { name: "B shop" },
  "security.get": undefined,
  "security.put": { require_two_factor: false, audit_retention_days: 400 },
  "retention.get": undefined,
  "retention.put": { screenings: 7, identities: null },
  "account.exportConfig": undefined,
  "account.previewImport": {
    warden_config: 1,
    blocklist: { countries: ["FR"], email_providers: [] },
    security: { require_two_factor: false, audit_retention_days: 400 },
  },
  "account.importConfig": {
    warden_config: 1,
    blocklist: { countries: ["FR"], email_providers: [] },
    allow_list: [{ kind: "user_id", value: "b-imported", note: null, expires_at: null }],
  },
  // A wrong password: B's own account must stay for the rest of the sweep (a 400).
  "account.delete": { confirm: "delete", password: "not B's password" },
  "auth.changePassword": { currentPassword: MERCHANT_PASSWORD, password: MERCHANT_PASSWORD },
  "waitlist.join": { email: "b-waitlist@b-side.example" },
  "waitlist.links": undefined,
  "dashboard.list": { limit: 100 },
  "dashboard.summary": undefined,
  "rules.get": undefined,
  "rules.put": { ...DEFAULT_RULES, risk_level_threshold: 90 },
  "templates.get": undefined,
  "templates.put": DEFAULT_TEMPLATES,
  "blocklist.get": undefined,
  "blocklist.put": { countries: ["FR"], email_providers: ["b-blocked.example"] },
  "settings.get": undefined,
  "settings.put": {
    app_name: "B app",
    contact_email: "ops@b-side.example",
    stripe_secret: "",
    stripe_publishable: "",
    stripe_webhook_secret: "",
  },
  "stripe.loadDemo": undefined,
  "stripe.demoPreview": undefined,
  "stripe.removeDemo": undefined,
  "allowedOrigins.get": undefined,
  "allowedOrigins.set": { origins: ["https://b-shop.example"] },
  "allowedOrigins.allow": { origin: "https://b-other.example" },
  "stripe.startImport": { days: 30 },
  "stripe.importStatus": undefined,
  "apiKeys.list": undefined,
  "apiKeys.create": { name: "B's key" },
  // Filled in with A's key id once it exists: B must not be able to revoke it.
  "apiKeys.revoke": { id: "set in beforeAll" },
  "ruleSettings.get": undefined,
  "ruleSettings.put": { rule_signup_velocity: { per_ip_per_hour: 99 } },
  "ruleSettings.effective": undefined,
  "screening.screen": { type: "signup", email: "victim@a-secret.example", ip: "192.0.2.200" },
  "screenings.list": { search: "victim@a-secret.example" },
  "screenings.counts": undefined,
  "screenings.perMinute": undefined,
  "backtest.start": {
    rules: { ...DEFAULT_RULES, rule_high_risk: true, rule_signup_velocity: true },
    templates: DEFAULT_TEMPLATES,
    rule_settings: {},
    blocklist: { countries: ["KP"], email_providers: [] },
    days: 30,
  },
  "backtest.status": undefined,
  "backtest.cancel": undefined,
  // The decision loop: ids below are A's, filled in once they exist.
  "labels.add": { subject_kind: "screening", subject_id: "set in beforeAll", label: "fraud" },
  "labels.history": { subject_kind: "screening", subject_id: "set in beforeAll" },
  "labelsApi.create": { subject_kind: "screening", subject_id: "set in beforeAll", label: "fraud" },
  "labels.bulk": {
    subject_kind: "screening",
    subject_ids: ["set in beforeAll"],
    label: "legitimate",
  },
  // A's bulk label, filled in once it exists: B must not be able to undo it.
  "labels.undo": { batch_id: "set in beforeAll" },
  "labels.counts": undefined,
  "review.queue": {},
  "review.count": undefined,
  "review.settle": { id: "set in beforeAll", decision: "approve" },
  "review.bulk": { filters: {}, decision: "deny" },
  "review.matching": {},
  "review.detail": { id: "set in beforeAll" },
  "screeningsApi.get": { id: "set in beforeAll" },
  "screeningsApi.decide": { id: "set in beforeAll", decision: "deny" },
  "allowList.list": undefined,
  "allowList.add": { kind: "user_id", value: "b-user" },
  "allowList.remove": { id: "set in beforeAll" },
  // A's end user, by the IP A screened them from (their email would be echoed back as the
  // subject): B must find, export and erase nothing of theirs.
  "endUsers.preview": { ip: "192.0.2.200" },
  "endUsers.export": { ip: "192.0.2.200" },
  "endUsers.erase": { ip: "192.0.2.200" },
  "webhooks.endpoints": undefined,
  "webhooks.createEndpoint": { url: "https://8.8.8.8/b-hook", events: ["label.created"] },
  "webhooks.removeEndpoint": { id: "set in beforeAll" },
  "webhooks.enableEndpoint": { id: "set in beforeAll" },
  "webhooks.endpointLimit": undefined,
  "webhooks.deliveries": undefined,
  "webhooks.resend": { id: "set in beforeAll" },
  "alerts.list": undefined,
  "alerts.events": undefined,
  "alerts.create": { name: "B alert", metric: "block_rate", threshold: 5 },
  // A's alert: 404 for B.
  "alerts.update": {
    id: "set in beforeAll",
    alert: { name: "B", metric: "block_rate", threshold: 1 },
  },
  "alerts.remove": { id: "set in beforeAll" },
  "alerts.test": { id: "set in beforeAll" },
  "scoreModels.list": undefined,
  "scoreModels.propose": undefined,
  // A's proposal, filled in once it exists: B must not be able to adopt it.
  "scoreModels.adopt": { id: "set in beforeAll" },
  "scoreModels.rollback": undefined,
  "scoreThresholds.get": undefined,
  "scoreThresholds.put": { thresholds: { signup: { review: 11, block: 12 } } },
  "scoreThresholds.reset": { type: "checkout" },
  "scoreThresholds.preview": { thresholds: { signup: { review: 0, block: 0 } } },
};

describe.each(DB_KINDS)("isolation sweep on %s", (kind) => {
  let t: TestApp;
  let a: Merchant;
  let bUserId = "";
  let bAccountId = "";
  let markers: string[] = [];
  const swept: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    a = await signedInMerchant(t, "merchant-a@a-secret.example");
    const b = await signedInMerchant(t, B_EMAIL);
    bUserId = (await t.prisma.user.findUniqueOrThrow({ where: { email: b.email } })).id;
    bAccountId = b.accountId;
    const aUser = await t.prisma.user.findUniqueOrThrow({ where: { email: a.email } });

    // A's data of every kind, through the same procedures a merchant uses.
    const seed = async (path: string, input: unknown) =>
      expect(await a.browser.mutate(path, input), path).toMatchObject({ ok: true });
    await seed("rules.put", { ...DEFAULT_RULES, rule_high_risk: true, risk_level_threshold: 42 });
    await seed(
      "templates.put",
      Object.fromEntries(Object.keys(DEFAULT_TEMPLATES).map((k) => [k, true])),
    );
    await seed("blocklist.put", {
      countries: ["KP"],
      email_providers: ["a-secret-provider.example"],
    });
    await seed("settings.put", {
      app_name: "A-secret-app",
      contact_email: "ops@a-secret.example",
      stripe_secret: "",
      stripe_publishable: "pk_test_Asecret123456",
      stripe_webhook_secret: "whsec_Asecretsigningsecret",
    });
    await seed("stripe.loadDemo", undefined);
    await seed("allowedOrigins.set", { origins: ["https://a-secret-shop.example"] });
    await t.prisma.transaction.create({
      data: {
        accountId: a.accountId,
        chargeId: "ch_A_secret_charge",
        hasCharge: true,
        amount: 4200,
        currency: "usd",
        email: "buyer@a-secret.example",
        created: Math.floor(t.clock.now().getTime() / 1000),
      },
    });
    const job = await t.prisma.importJob.create({ data: { accountId: a.accountId, days: 7 } });
    await seed("ruleSettings.put", { rule_signup_velocity: { per_ip_per_hour: 2 } });
    await seed("scoreThresholds.put", { thresholds: { checkout: { review: 42, block: 77 } } });
    const key = await a.browser.mutate<{ id: string; key: string }>("apiKeys.create", {
      name: "A-secret key",
    });
    if (!key.ok) throw new Error("A's API key was not created");
    INPUTS["apiKeys.revoke"] = { id: key.data.id };
    INPUTS["auth.switchAccount"] = { account_id: a.accountId };
    const invite = await a.browser.mutate<{ id: string }>("team.invite", {
      email: "a-invitee@a-secret.example",
      role: "viewer",
    });
    expect(invite, "team.invite").toMatchObject({ ok: true });
    INPUTS["team.revokeInvite"] = { id: (await t.prisma.invite.findFirstOrThrow()).id };
    INPUTS["team.changeRole"] = { user_id: aUser.id, role: "viewer" };
    INPUTS["team.remove"] = { user_id: aUser.id };
    INPUTS["team.transferOwnership"] = { user_id: aUser.id };
    const screened = await fetch(`${t.baseUrl}/api/v1/screen`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.data.key}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "signup", email: "victim@a-secret.example", ip: "192.0.2.200" }),
    });
    expect(screened.status).toBe(200);
    // A's review of that screening, its label, an allow entry, and a webhook endpoint with a
    // delivery that gave up (so the worker leaves it alone and only a re-send would move it).
    const screeningId = ((await screened.json()) as { id: string }).id;
    await t.prisma.screening.update({ where: { id: screeningId }, data: { decision: "review" } });
    await seed("labels.add", {
      subject_kind: "screening",
      subject_id: screeningId,
      label: "fraud",
      note: "A-secret-label",
    });
    const allowed = await a.browser.mutate<{ id: string }>("allowList.add", {
      kind: "email",
      value: "vip@a-secret.example",
    });
    if (!allowed.ok) throw new Error("A's allow entry was not created");
    const endpoint = await t.prisma.webhookEndpoint.create({
      data: {
        accountId: a.accountId,
        url: "https://8.8.8.8/a-secret-hook",
        events: ["label.created"],
        secretCipher: "sealed",
      },
    });
    const delivery = await t.prisma.webhookDelivery.create({
      data: {
        accountId: a.accountId,
        endpointId: endpoint.id,
        eventId: "evt_Asecret",
        eventType: "label.created",
        body: '{"id":"evt_Asecret"}',
        status: "failed",
        attempts: 8,
      },
    });
    for (const path of ["labels.add", "labelsApi.create", "labels.history"]) {
      INPUTS[path] = { ...(INPUTS[path] as object), subject_id: screeningId };
    }
    INPUTS["labels.bulk"] = { ...(INPUTS["labels.bulk"] as object), subject_ids: [screeningId] };
    const aBatch = crypto.randomUUID();
    await t.prisma.label.create({
      data: {
        accountId: a.accountId,
        subjectKind: "screening",
        subjectId: screeningId,
        label: "fraud",
        source: "person",
        who: a.email,
        batchId: aBatch,
      },
    });
    INPUTS["labels.undo"] = { batch_id: aBatch };
    for (const path of [
      "review.settle",
      "review.detail",
      "screeningsApi.get",
      "screeningsApi.decide",
    ]) {
      INPUTS[path] = { ...(INPUTS[path] as object), id: screeningId };
    }
    INPUTS["allowList.remove"] = { id: allowed.data.id };
    INPUTS["webhooks.removeEndpoint"] = { id: endpoint.id };
    INPUTS["webhooks.enableEndpoint"] = { id: endpoint.id };
    INPUTS["webhooks.resend"] = { id: delivery.id };
    const alert = await a.browser.mutate<{ id: string }>("alerts.create", {
      name: "A-secret alert",
      metric: "rule_hits",
      rule: "rule_high_risk",
      threshold: 3,
      slack_url: "https://8.8.8.8/a-secret-slack",
    });
    if (!alert.ok) throw new Error("A's alert was not created");
    for (const path of ["alerts.update", "alerts.remove", "alerts.test"]) {
      INPUTS[path] = { ...(INPUTS[path] as object), id: alert.data.id };
    }
    // A's own weights: version 1 in force, version 2 proposed.
    const [aAdopted, aProposed] = await Promise.all(
      [1, 2].map((version) =>
        t.prisma.scoreModel.create({
          data: {
            accountId: a.accountId,
            version,
            status: version === 1 ? "adopted" : "proposed",
            weights: JSON.parse(JSON.stringify({ ...DEFAULT_WEIGHTS, version: `acct-${version}` })),
            createdBy: a.email,
          },
        }),
      ),
    );
    INPUTS["scoreModels.adopt"] = { id: aProposed?.id };
    await t.app.services.stripeActions.runDue();
    await t.app.services.outbox.flush();
    markers = [
      a.accountId,
      aUser.id,
      job.id,
      "a-secret",
      "A-secret-app",
      "Asecret",
      "ch_A_secret_charge",
      '"risk_level_threshold":42',
      '"review":42,"block":77',
      key.data.id,
      key.data.key.slice(0, 12),
      "A-secret-label",
      "a-secret-shop",
      endpoint.id,
      delivery.id,
      aAdopted?.id ?? "",
      aProposed?.id ?? "",
    ];
  });
  afterAll(async () => {
    console.log(`isolation: ${swept.length} procedures swept: ${swept.join(", ")}`);
    await t?.close();
  });

  /** Everything stored for A, in a stable order. */
  async function aState(): Promise<string> {
    const where = { accountId: a.accountId };
    const state = await Promise.all([
      t.prisma.user.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.session.findMany({ where: { user: where }, orderBy: { id: "asc" } }),
      t.prisma.emailToken.findMany({ where: { user: where }, orderBy: { tokenHash: "asc" } }),
      t.prisma.ruleSettings.findMany({ where }),
      t.prisma.templateSettings.findMany({ where }),
      t.prisma.blocklist.findMany({ where }),
      t.prisma.merchantSettings.findMany({ where }),
      t.prisma.transaction.findMany({ where, orderBy: { chargeId: "asc" } }),
      t.prisma.stripeEvent.findMany({ where, orderBy: { eventId: "asc" } }),
      t.prisma.stripeAction.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.importJob.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.ruleParameterSettings.findMany({ where }),
      t.prisma.apiKey.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.screening.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.screeningIdentity.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.label.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.allowEntry.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.webhookEndpoint.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.webhookDelivery.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.allowedOrigins.findMany({ where }),
      t.prisma.collectRefusal.findMany({ where, orderBy: { origin: "asc" } }),
      t.prisma.demoLoad.findMany({ where }),
      t.prisma.scoreModel.findMany({ where, orderBy: { id: "asc" } }),
      t.prisma.scoreSettings.findMany({ where }),
    ]);
    return JSON.stringify(state, (_key, value) =>
      typeof value === "bigint" ? String(value) : value,
    );
  }

  it("has an input for every procedure of the app router", () => {
    expect(procedures.map((p) => p.path).filter((path) => !(path in INPUTS))).toEqual([]);
  });

  it.each(procedures.map((p) => [p.path, p] as const))(
    "B calling %s neither reads nor changes A's data",
    async (path, procedure) => {
      await t.app.services.stripeActions.runDue();
      await t.app.services.outbox.flush();
      t.clock.advance(61 * 60_000); // a fresh rate-limit window for every call
      const before = await aState();
      const { token } = await t.app.services.sessions.create(bUserId, bAccountId);
      const headers = { authorization: `Bearer ${token}` };
      const input = INPUTS[path];
      const response =
        procedure.type === "query"
          ? await fetch(
              `${t.baseUrl}/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
              { headers },
            )
          : await fetch(`${t.baseUrl}/trpc/${path}`, {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: input === undefined ? undefined : JSON.stringify(input),
            });
      const body = await response.text();
      expect(response.status, `${path}: ${body.slice(0, 300)}`).toBeLessThan(500);
      for (const marker of markers) expect(body, `${path} leaked ${marker}`).not.toContain(marker);
      await t.app.services.stripeActions.runDue();
      await t.app.services.outbox.flush();
      expect(await aState(), `${path} changed A's data`).toBe(before);
      swept.push(path);
    },
  );
});
