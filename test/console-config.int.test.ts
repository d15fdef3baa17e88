/**
 * Console configuration (rules, templates, block list, settings) on both databases and
 * through both transports: tRPC with the session cookie, as the console calls it, and the
 * REST paths with a bearer token, as a script calls them. A bad field is a 400 naming it,
 * NUL in any settings field included, and stores nothing.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: the tests read raw JSON bodies.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../shared/schemas/templates.ts";
import { DB_KINDS } from "./helpers/databases.ts";
import { TestClient } from "./helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "./helpers/merchants.ts";
import type { TestApp } from "./helpers/test-app.ts";
import { withTestApp } from "./with-test-app.ts";

type Entity = "rules" | "templates" | "blocklist" | "settings";
type Issue = { path: string; message: string };
type Reply = { status: number; text: string; data: Record<string, unknown>; issues: Issue[] };

/** Every response body either transport returned, searched at the end for stored secrets. */
const seen: string[] = [];

async function reply(response: Response, unwrap: (json: any) => { data?: any; issues?: Issue[] }) {
  const text = await response.text();
  seen.push(text);
  const { data, issues } = unwrap(JSON.parse(text));
  return { status: response.status, text, data: data ?? {}, issues: issues ?? [] } as Reply;
}

type Transport = {
  id: string;
  name: string;
  get(m: Merchant, entity: Entity): Promise<Reply>;
  put(m: Merchant, entity: Entity, body: unknown): Promise<Reply>;
};

const trpcUnwrap = (json: any) =>
  json.result ? { data: json.result.data } : { issues: json.error.data.issues };
const restUnwrap = (json: any) => (json.error ? { issues: json.error.issues } : { data: json });

const TRANSPORTS: Transport[] = [
  {
    id: "trpc",
    name: "tRPC (session cookie)",
    get: async (m, entity) => reply(await m.browser.request(`/trpc/${entity}.get`), trpcUnwrap),
    put: async (m, entity, body) =>
      reply(
        await m.browser.request(`/trpc/${entity}.put`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        trpcUnwrap,
      ),
  },
  {
    id: "rest",
    name: "REST (bearer token)",
    get: async (m, entity) => reply(await m.api.request(`/api/${entity}`), restUnwrap),
    put: async (m, entity, body) =>
      reply(
        await m.api.request(`/api/${entity}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        restUnwrap,
      ),
  },
];

const EMPTY_SETTINGS = {
  app_name: "",
  contact_email: "",
  stripe_secret: "",
  stripe_publishable: "",
  stripe_webhook_secret: "",
  stripe_webhook_url: expect.stringMatching(/\/webhooks\/stripe\/[0-9a-f-]{36}$/),
};

const VALID: Record<Entity, Record<string, unknown>> = {
  rules: { ...DEFAULT_RULES },
  templates: { ...DEFAULT_TEMPLATES },
  blocklist: { countries: [], email_providers: [] },
  settings: { app_name: "", contact_email: "", stripe_secret: "", stripe_publishable: "" },
};

const longDomain = `${`${"a".repeat(60)}.`.repeat(5)}com`;
const tooManyProviders = Array.from({ length: 1001 }, (_, i) => `provider${i}.com`);

/** Each invalid body: which entity, what changes in a valid body, the field the 400 must name. */
const INVALID: {
  entity: Entity;
  case: string;
  change: Record<string, unknown>;
  path: string;
  message: RegExp;
}[] = [
  {
    entity: "rules",
    case: "risk_level_threshold: 101",
    change: { risk_level_threshold: 101 },
    path: "risk_level_threshold",
    message: /0 to 100/,
  },
  {
    entity: "rules",
    case: "risk_level_threshold: -1",
    change: { risk_level_threshold: -1 },
    path: "risk_level_threshold",
    message: /0 to 100/,
  },
  {
    entity: "rules",
    case: "risk_level_threshold: 50.5",
    change: { risk_level_threshold: 50.5 },
    path: "risk_level_threshold",
    message: /whole number/,
  },
  {
    entity: "rules",
    case: 'risk_level_threshold: "70"',
    change: { risk_level_threshold: "70" },
    path: "risk_level_threshold",
    message: /whole number/,
  },
  {
    entity: "rules",
    case: "risk_level_threshold: null",
    change: { risk_level_threshold: null },
    path: "risk_level_threshold",
    message: /whole number/,
  },
  {
    entity: "rules",
    case: 'rule_efw: "yes"',
    change: { rule_efw: "yes" },
    path: "rule_efw",
    message: /true or false/,
  },
  {
    entity: "rules",
    case: "rule_efw: undefined",
    change: { rule_efw: undefined },
    path: "rule_efw",
    message: /true or false/,
  },
  {
    entity: "rules",
    case: "rule_bogus: true",
    change: { rule_bogus: true },
    path: "(root)",
    message: /^Unknown key: rule_bogus$/,
  },
  {
    entity: "templates",
    case: "template_refund_abuser_flag: 1",
    change: { template_refund_abuser_flag: 1 },
    path: "template_refund_abuser_flag",
    message: /true or false/,
  },
  {
    entity: "templates",
    case: "template_magic: true",
    change: { template_magic: true },
    path: "(root)",
    message: /^Unknown key: template_magic$/,
  },
  {
    entity: "blocklist",
    case: 'countries: ["XX"]',
    change: { countries: ["XX"] },
    path: "countries.0",
    message: /ISO 3166-1 alpha-2/,
  },
  {
    entity: "blocklist",
    case: 'countries: ["us"]',
    change: { countries: ["us"] },
    path: "countries.0",
    message: /ISO 3166-1 alpha-2/,
  },
  {
    entity: "blocklist",
    case: 'countries: "US"',
    change: { countries: "US" },
    path: "countries",
    message: /array/,
  },
  {
    entity: "blocklist",
    case: 'email_providers: ["Example.com"]',
    change: { email_providers: ["Example.com"] },
    path: "email_providers.0",
    message: /lowercase domain/,
  },
  {
    entity: "blocklist",
    case: 'email_providers: ["localhost"]',
    change: { email_providers: ["localhost"] },
    path: "email_providers.0",
    message: /lowercase domain/,
  },
  {
    entity: "blocklist",
    case: 'email_providers: ["bad_name.com"]',
    change: { email_providers: ["bad_name.com"] },
    path: "email_providers.0",
    message: /lowercase domain/,
  },
  {
    entity: "blocklist",
    case: "a 308-character domain",
    change: { email_providers: [longDomain] },
    path: "email_providers.0",
    message: /253 characters/,
  },
  {
    entity: "blocklist",
    case: "1001 providers",
    change: { email_providers: tooManyProviders },
    path: "email_providers",
    message: /at most 1000/,
  },
  {
    entity: "blocklist",
    case: 'accountId: "someone-else"',
    change: { accountId: "someone-else" },
    path: "(root)",
    message: /^Unknown key: accountId$/,
  },
  {
    entity: "settings",
    case: 'contact_email: "not-an-email"',
    change: { contact_email: "not-an-email" },
    path: "contact_email",
    message: /email address/,
  },
  {
    entity: "settings",
    case: 'stripe_secret: "pk_test_12345678abc"',
    change: { stripe_secret: "pk_test_12345678abc" },
    path: "stripe_secret",
    message: /sk_test_/,
  },
  {
    entity: "settings",
    case: 'stripe_secret: "sk_prod_12345678abc"',
    change: { stripe_secret: "sk_prod_12345678abc" },
    path: "stripe_secret",
    message: /sk_test_/,
  },
  {
    entity: "settings",
    case: 'stripe_publishable: "sk_test_12345678abc"',
    change: { stripe_publishable: "sk_test_12345678abc" },
    path: "stripe_publishable",
    message: /pk_test_/,
  },
  {
    entity: "settings",
    case: 'stripe_webhook_secret: "signing-secret"',
    change: { stripe_webhook_secret: "signing-secret" },
    path: "stripe_webhook_secret",
    message: /whsec_/,
  },
  {
    entity: "settings",
    case: 'app_name: "x".repeat(101)',
    change: { app_name: "x".repeat(101) },
    path: "app_name",
    message: /at most 100/,
  },
  {
    entity: "settings",
    case: "app_name: 5",
    change: { app_name: 5 },
    path: "app_name",
    message: /string/,
  },
  // PostgreSQL refuses NUL in text: every field, written or ignored, is a 400, never a 500.
  ...(
    [
      ["app_name", "Shop\u0000"],
      ["contact_email", "ops\u0000@shop.test"],
      ["stripe_secret", "sk_test_\u000012345678"],
      ["stripe_publishable", "pk_test_12345678\u0000"],
      ["stripe_webhook_secret", "whsec_\u000012345678"],
      ["stripe_webhook_url", "https://x.test/\u0000"],
      ["app_name", "Shop \ud800"],
    ] as const
  ).map(([field, value]) => ({
    entity: "settings" as const,
    case: `${field}: ${JSON.stringify(value)}`,
    change: { [field]: value },
    path: field,
    message: /^must not contain NUL characters or unpaired surrogates$/,
  })),
  {
    entity: "settings",
    case: 'accountId: "someone-else"',
    change: { accountId: "someone-else" },
    path: "(root)",
    message: /^Unknown key: accountId$/,
  },
];

describe.each(DB_KINDS)("console configuration on %s", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  describe.each(TRANSPORTS)("through $name", (transport) => {
    let alice: Merchant;
    let bob: Merchant;
    const SECRET = `sk_test_51${transport.id}SecretKeyValue4242`;
    const SECRET2 = `rk_live_51${transport.id}RestrictedKey7777`;
    const SIGNING = `whsec_${transport.id}SigningSecretValue9876`;

    beforeAll(async () => {
      alice = await signedInMerchant(t, `alice-${transport.id}@example.com`);
      bob = await signedInMerchant(t, `bob-${transport.id}@example.com`);
    });

    it("creates every record with its defaults on first read", async () => {
      expect(await transport.get(alice, "rules")).toMatchObject({
        status: 200,
        data: { ...DEFAULT_RULES, risk_level_threshold: 70 },
      });
      expect((await transport.get(alice, "rules")).data.rule_high_risk).toBe(false);
      expect(await transport.get(alice, "templates")).toMatchObject({
        status: 200,
        data: DEFAULT_TEMPLATES,
      });
      expect((await transport.get(alice, "blocklist")).data).toEqual({
        countries: [],
        email_providers: [],
      });
      expect((await transport.get(alice, "settings")).data).toEqual(EMPTY_SETTINGS);
      expect(await t.prisma.ruleSettings.count({ where: { accountId: alice.accountId } })).toBe(1);
    });

    it("round-trips rules and templates as whole objects", async () => {
      const rules = {
        ...DEFAULT_RULES,
        rule_high_risk: true,
        rule_cc_reuse: true,
        risk_level_threshold: 35,
      };
      expect(await transport.put(alice, "rules", rules)).toMatchObject({
        status: 200,
        data: rules,
      });
      expect((await transport.get(alice, "rules")).data).toEqual(rules);
      const edge = { ...rules, risk_level_threshold: 0 };
      expect((await transport.put(alice, "rules", edge)).data).toEqual(edge);
      const top = { ...rules, risk_level_threshold: 100 };
      expect((await transport.put(alice, "rules", top)).data).toEqual(top);

      const templates = { ...DEFAULT_TEMPLATES, template_account_farm_shield: true };
      expect(await transport.put(alice, "templates", templates)).toMatchObject({
        status: 200,
        data: templates,
      });
      expect((await transport.get(alice, "templates")).data).toEqual(templates);
    });

    it("round-trips the block list, dropping duplicates", async () => {
      const sent = {
        countries: ["FR", "US", "FR"],
        email_providers: ["gmail.com", "mail.example.co.uk", "gmail.com"],
      };
      const saved = {
        countries: ["FR", "US"],
        email_providers: ["gmail.com", "mail.example.co.uk"],
      };
      expect(await transport.put(alice, "blocklist", sent)).toMatchObject({
        status: 200,
        data: saved,
      });
      expect((await transport.get(alice, "blocklist")).data).toEqual(saved);
      const full = Array.from({ length: 1000 }, (_, i) => `p${i}.example.com`);
      const big = await transport.put(alice, "blocklist", { countries: [], email_providers: full });
      expect(big.status).toBe(200);
      expect((await transport.get(alice, "blocklist")).data.email_providers).toHaveLength(1000);
      await transport.put(alice, "blocklist", sent);
    });

    it.each(INVALID)(
      "rejects $entity $case with 400 naming $path",
      async ({ entity, change, path, message }) => {
        const before = await transport.get(alice, entity);
        const refused = await transport.put(alice, entity, { ...VALID[entity], ...change });
        expect(refused.status).toBe(400);
        const issue = refused.issues.find((i) => i.path === path);
        expect(issue, JSON.stringify(refused.issues)).toBeDefined();
        expect(issue?.message).toMatch(message);
        expect((await transport.get(alice, entity)).data).toEqual(before.data);
      },
    );

    it("keeps Stripe secrets write-only: encrypted at rest, read back only as hints", async () => {
      const settings = {
        app_name: "Acme",
        contact_email: "ops@acme.test",
        stripe_secret: SECRET,
        stripe_publishable: "pk_test_51Publishable0001",
        stripe_webhook_secret: SIGNING,
      };
      const view = {
        ...settings,
        stripe_secret: "sk_test_…4242",
        stripe_webhook_secret: "whsec_…9876",
        stripe_webhook_url: expect.stringMatching(/\/webhooks\/stripe\/[0-9a-f-]{36}$/),
      };
      expect(await transport.put(alice, "settings", settings)).toMatchObject({
        status: 200,
        data: view,
      });
      const read = await transport.get(alice, "settings");
      expect(read.data).toEqual(view);

      const row = await t.prisma.merchantSettings.findUniqueOrThrow({
        where: { accountId: alice.accountId },
      });
      expect(JSON.stringify(row)).not.toContain(SECRET);
      expect(JSON.stringify(row)).not.toContain(SIGNING);
      expect(row.stripeSecretCipher).toMatch(/^v1\./);
      const credentials = () => t.app.services.settings.stripeCredentials(alice.accountId);
      expect(await credentials()).toEqual({ secretKey: SECRET, webhookSecret: SIGNING });

      // Blank secrets keep what is stored; other fields change.
      const renamed = { ...settings, app_name: "Acme Two", stripe_secret: "" };
      delete (renamed as Partial<typeof renamed>).stripe_webhook_secret;
      expect((await transport.put(alice, "settings", renamed)).data).toEqual({
        ...view,
        app_name: "Acme Two",
      });
      expect(await credentials()).toEqual({ secretKey: SECRET, webhookSecret: SIGNING });

      // A GET body sent straight back (hints and the read-only URL included) changes nothing.
      const echoed = await transport.put(
        alice,
        "settings",
        (await transport.get(alice, "settings")).data,
      );
      expect(echoed.status).toBe(200);
      expect(await credentials()).toEqual({ secretKey: SECRET, webhookSecret: SIGNING });

      // A new key replaces the old one.
      const rotated = await transport.put(alice, "settings", {
        ...settings,
        stripe_secret: SECRET2,
      });
      expect(rotated.data.stripe_secret).toBe("rk_live_…7777");
      expect((await credentials()).secretKey).toBe(SECRET2);
    });

    it("keeps each merchant's records to their own account", async () => {
      const aliceBefore = {
        rules: (await transport.get(alice, "rules")).data,
        templates: (await transport.get(alice, "templates")).data,
        blocklist: (await transport.get(alice, "blocklist")).data,
        settings: (await transport.get(alice, "settings")).data,
      };
      expect(aliceBefore.rules.rule_high_risk).toBe(true);
      expect(aliceBefore.settings.app_name).toBe("Acme");

      // Bob sees only his own defaults, never Alice's values.
      expect((await transport.get(bob, "rules")).data).toEqual(DEFAULT_RULES);
      expect((await transport.get(bob, "templates")).data).toEqual(DEFAULT_TEMPLATES);
      expect((await transport.get(bob, "blocklist")).data).toEqual({
        countries: [],
        email_providers: [],
      });
      expect((await transport.get(bob, "settings")).data).toEqual(EMPTY_SETTINGS);

      // Bob's writes land on Bob's account, even when he names Alice's.
      await transport.put(bob, "rules", {
        ...DEFAULT_RULES,
        rule_ip: true,
        risk_level_threshold: 5,
      });
      await transport.put(bob, "templates", {
        ...DEFAULT_TEMPLATES,
        template_refund_abuser_flag: true,
      });
      await transport.put(bob, "blocklist", {
        countries: ["DE"],
        email_providers: ["bob.example"],
      });
      await transport.put(bob, "settings", { ...VALID.settings, app_name: "Bob's" });
      const hijack = await transport.put(bob, "settings", {
        ...VALID.settings,
        accountId: alice.accountId,
      });
      expect(hijack.status).toBe(400);
      const viaQuery = await bob.api.json(`/api/rules?accountId=${alice.accountId}`);
      expect(viaQuery.body).toMatchObject({ rule_ip: true, risk_level_threshold: 5 });

      for (const entity of ["rules", "templates", "blocklist", "settings"] as const) {
        expect((await transport.get(alice, entity)).data, entity).toEqual(aliceBefore[entity]);
      }
      expect((await transport.get(bob, "settings")).data.stripe_secret).toBe("");
      expect(await t.app.services.settings.stripeCredentials(bob.accountId)).toEqual({
        secretKey: null,
        webhookSecret: null,
      });
    });

    it("answers 401 without a session or with a forged token", async () => {
      const anonymous = {
        ...alice,
        browser: new TestClient(t.baseUrl),
        api: new TestClient(t.baseUrl, {}),
      };
      for (const entity of ["rules", "templates", "blocklist", "settings"] as const) {
        expect((await transport.get(anonymous, entity)).status, entity).toBe(401);
        expect((await transport.put(anonymous, entity, VALID[entity])).status, entity).toBe(401);
      }
      const forged = {
        ...alice,
        api: new TestClient(t.baseUrl, { authorization: "Bearer abc.def" }),
      };
      forged.browser.cookies.set("warden_session", "abc.def");
      expect((await transport.get(forged, "rules")).status).toBe(401);
    });
  });

  it("loads a stored threshold that is not a number as 70, and ignores stray stored keys", async () => {
    const carol = await signedInMerchant(t, "carol@example.com");
    await t.prisma.ruleSettings.create({
      data: {
        accountId: carol.accountId,
        values: { risk_level_threshold: "abc", rule_efw: true, rule_retired: true },
      },
    });
    const rules = await carol.api.json("/api/rules");
    expect(rules.body).toEqual({ ...DEFAULT_RULES, rule_efw: true, risk_level_threshold: 70 });
    await t.prisma.ruleSettings.update({
      where: { accountId: carol.accountId },
      data: { values: { risk_level_threshold: 250 } },
    });
    expect(
      (await carol.api.json<{ risk_level_threshold: number }>("/api/rules")).body
        .risk_level_threshold,
    ).toBe(100);
  });

  it("serves the REST dashboard (empty for now), errors as JSON, and the OpenAPI document", async () => {
    const dave = await signedInMerchant(t, "dave@example.com");
    expect(await dave.api.json("/api/dashboard")).toMatchObject({ status: 200, body: [] });
    const anonymous = await new TestClient(t.baseUrl, {}).json<any>("/api/dashboard");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toMatch(/application\/json/);
    expect(anonymous.body.error).toMatchObject({ code: "UNAUTHORIZED", message: "Please log in." });

    const doc = await new TestClient(t.baseUrl, {}).json<any>("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    for (const path of ["/api/rules", "/api/templates", "/api/blocklist", "/api/settings"]) {
      expect(Object.keys(doc.body.paths[path] ?? {}).sort(), path).toEqual(["get", "put"]);
    }
    expect(doc.body.paths["/api/dashboard"]).toHaveProperty("get");
    const rulesBody =
      doc.body.paths["/api/rules"].put.requestBody.content["application/json"].schema;
    expect(rulesBody.additionalProperties).toBe(false);
    expect(rulesBody.properties.risk_level_threshold).toMatchObject({ minimum: 0, maximum: 100 });
    const docs = await new TestClient(t.baseUrl, {}).request("/api/docs/");
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
  });

  it("never sends a stored secret in any response body", () => {
    expect(seen.length).toBeGreaterThan(50);
    for (const transport of TRANSPORTS) {
      for (const secret of [
        `sk_test_51${transport.id}SecretKeyValue4242`,
        `rk_live_51${transport.id}RestrictedKey7777`,
        `whsec_${transport.id}SigningSecretValue9876`,
      ]) {
        for (const text of seen) expect(text).not.toContain(secret);
      }
    }
  });
});
