/**
 * Origins that cannot trap anyone, over real HTTP on both databases: a collect refused for its
 * origin answers CORS so the page can read why; the refusal is recorded for the account and
 * suggested in Settings → API keys (GET /api/allowed-origins); a screening sent warden.js's
 * refusal token answers `signals: "refused"` with the reason; allowing the origin lets the
 * next collect through. Also: the allowed origins' 400s and the migration that moved them out
 * of rule_referrer_mismatch's settings.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedToken } from "../../shared/collector-refusal.ts";
import type { AllowedOriginsView } from "../../shared/schemas/allowed-origins.ts";
import { collect, humanSignals, publishableKeyOf, SHOP } from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const LOCAL = "http://localhost:4000";

describe.each(DB_KINDS)("refused origins (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  let pk: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `refused-${kind}@example.com`);
    backend = await backendOf(t, merchant);
    pk = (await publishableKeyOf(merchant)).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const origins = async (who = merchant) =>
    (await who.api.json<AllowedOriginsView>("/api/allowed-origins")).body;

  it("answers a refused collect with CORS for its origin, so the page can read why", async () => {
    const refused = await collect(t, pk, humanSignals(), { origin: LOCAL });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe(LOCAL);
    expect(refused.headers.get("access-control-allow-credentials")).toBeNull();
    expect(refused.headers.get("vary")?.toLowerCase()).toContain("origin");
    expect(refused.body.error?.message).toBe(
      `Origin ${LOCAL} is not one of this account's allowed origins: ` +
        "allow it in Settings → API keys → Allowed origins.",
    );
    expect(refused.body.token).toBeUndefined();

    // An unknown key is readable too, and the preflight answers any origin.
    const unknown = await collect(t, "wdn_pk_madeupmadeupmadeupmadeupmadeup", humanSignals(), {
      origin: LOCAL,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("access-control-allow-origin")).toBe(LOCAL);
    const preflight = await fetch(`${t.baseUrl}/api/v1/collect?key=${pk}`, {
      method: "OPTIONS",
      headers: {
        origin: "https://elsewhere.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://elsewhere.example");
  });

  it("suggests the refused origin to its own account only, and allowing it lets collects in", async () => {
    const view = await origins();
    expect(view.origins).toEqual([]);
    expect(view.refused.map((r) => r.origin)).toEqual([LOCAL]);
    expect(view.refused[0]?.reason).toContain("Settings → API keys");

    const other = await signedInMerchant(t, `refused-other-${kind}@example.com`);
    expect((await origins(other)).refused).toEqual([]);

    const allowed = await merchant.api.json<AllowedOriginsView>("/api/allowed-origins", {
      body: { origin: LOCAL },
    });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body).toEqual({ origins: [LOCAL], refused: [] });
    // A second click keeps it once.
    const again = await merchant.api.json<AllowedOriginsView>("/api/allowed-origins", {
      body: { origin: LOCAL },
    });
    expect(again.body.origins).toEqual([LOCAL]);

    const ok = await collect(t, pk, humanSignals({ url: `${LOCAL}/signup`, referrer: undefined }), {
      origin: LOCAL,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.token).toMatch(/^wdn_sig_/);
  });

  it("answers signals: refused with the reason for warden.js's refusal token", async () => {
    const page = "http://localhost:5000";
    expect((await collect(t, pk, humanSignals(), { origin: page })).status).toBe(403);
    const answer = await backend.decide({ type: "signup", signals: refusedToken(page) });
    expect(answer).toMatchObject({
      decision: "allow",
      signals: "refused",
      signals_reason: `Origin ${page} is not one of this account's allowed origins: allow it in Settings → API keys → Allowed origins.`,
    });
    // An origin never refused for this account, or another account's refusal: invalid.
    const never = await backend.decide({
      type: "signup",
      signals: refusedToken("https://never.example"),
    });
    expect(never.signals).toBe("invalid");
    expect(never.signals_reason).toBeUndefined();
    for (const junk of ["\u0000", "not an origin", `${page}/path`, "é"]) {
      const forged = `wdn_sig_refused_${Buffer.from(junk, "latin1").toString("base64url")}`;
      expect((await backend.decide({ type: "signup", signals: forged })).signals, junk).toBe(
        "invalid",
      );
    }
    const other = await signedInMerchant(t, `refused-third-${kind}@example.com`);
    const otherBackend = await backendOf(t, other);
    expect(
      (await otherBackend.decide({ type: "signup", signals: refusedToken(page) })).signals,
    ).toBe("invalid");
  });

  it("keeps the newest 20 refused origins of an account", async () => {
    const crowd = await signedInMerchant(t, `refused-crowd-${kind}@example.com`);
    const crowdKey = (await publishableKeyOf(crowd)).key;
    for (let i = 0; i < 24; i++) {
      t.clock.advance(1000);
      await collect(t, crowdKey, humanSignals(), { origin: `https://site${i}.example` });
    }
    expect(await t.prisma.collectRefusal.count({ where: { accountId: crowd.accountId } })).toBe(20);
    const view = await origins(crowd);
    expect(view.refused.map((r) => r.origin)).toEqual(
      [23, 22, 21, 20, 19].map((i) => `https://site${i}.example`),
    );
  });

  it("refuses a bad origin list with a 400 naming the field", async () => {
    const bad = await merchant.api.json<{ error: { message: string } }>("/api/allowed-origins", {
      method: "PUT",
      body: { origins: [SHOP, "https://shop.example.com/signup"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^origins\.1: must be an origin/);
    const put = await merchant.api.json<AllowedOriginsView>("/api/allowed-origins", {
      method: "PUT",
      body: { origins: [" HTTPS://Shop.Example.com ", LOCAL, LOCAL] },
    });
    expect(put.body.origins).toEqual([SHOP, LOCAL]);
  });

  it("moves each account's allowed origins out of the rule's settings (the migration)", async () => {
    const moved = await signedInMerchant(t, `refused-moved-${kind}@example.com`);
    await t.prisma.ruleParameterSettings.upsert({
      where: { accountId: moved.accountId },
      create: {
        accountId: moved.accountId,
        values: {
          rule_referrer_mismatch: { mode: "monitor", allowed_origins: [SHOP, LOCAL] },
          rule_ip: { window_days: 9 },
        },
      },
      update: {},
    });
    const migration = await readFile(
      join(
        import.meta.dirname,
        "../../prisma/migrations/20261126143641_collector_origins/migration.sql",
      ),
      "utf8",
    );
    const move = migration.slice(migration.indexOf("-- Allowed origins move"));
    for (const statement of move.split(/;\s*\n/).filter((s) => s.includes('"'))) {
      await t.prisma.$executeRawUnsafe(statement);
    }
    expect((await origins(moved)).origins).toEqual([SHOP, LOCAL]);
    const row = await t.prisma.ruleParameterSettings.findUniqueOrThrow({
      where: { accountId: moved.accountId },
    });
    expect(row.values).toEqual({
      rule_referrer_mismatch: { mode: "monitor" },
      rule_ip: { window_days: 9 },
    });
  });
});
