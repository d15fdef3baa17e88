/**
 * REST parity for the decision loop, over real HTTP on both databases: the allow list under
 * /api/allowlist with a console token (the service the console's tRPC router calls), and a
 * charge's review read and settled with a secret API key under /api/v1/charges/{id}, like a
 * screening's. Each answers only for the caller's own account: another account's id is a 404.
 */
import { describe, expect, it } from "vitest";
import type { AllowEntryView } from "../../shared/schemas/allow-list.ts";
import type { ChargeReviewDetail } from "../../shared/schemas/review.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { TestClient } from "../helpers/http-client.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";
import { reviewHighRiskCharges } from "./setup.ts";

describe.each(DB_KINDS)("REST parity (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  it("documents the routes in the OpenAPI document", async () => {
    const doc = await new TestClient(t.baseUrl).json<{ paths: Record<string, object> }>(
      "/api/openapi.json",
    );
    const methods = (path: string) => Object.keys(doc.body.paths[path] ?? {}).sort();
    expect(methods("/api/allowlist")).toEqual(["get", "post"]);
    expect(methods("/api/allowlist/{id}")).toEqual(["delete"]);
    expect(methods("/api/v1/charges/{id}")).toEqual(["get"]);
    expect(methods("/api/v1/charges/{id}/decision")).toEqual(["post"]);
  });

  it("lists, adds and removes allow-list entries over REST, only the account's own", async () => {
    const merchant = await signedInMerchant(t, `allow-rest-${kind}@example.com`);
    const other = await signedInMerchant(t, `allow-rest-other-${kind}@example.com`);
    expect(await merchant.api.json("/api/allowlist")).toMatchObject({ status: 200, body: [] });

    const added = await merchant.api.json<AllowEntryView>("/api/allowlist", {
      body: { kind: "email", value: "vip@example.com", note: "key account" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      kind: "email",
      value: "vip@example.com",
      note: "key account",
    });
    // The console's procedure reads the same list.
    const viaTrpc = await merchant.browser.query<AllowEntryView[]>("allowList.list");
    expect(viaTrpc).toMatchObject({ ok: true, data: [{ id: added.body.id }] });
    expect((await merchant.api.json<AllowEntryView[]>("/api/allowlist")).body).toEqual([
      added.body,
    ]);

    const bad = await merchant.api.json("/api/allowlist", {
      body: { kind: "planet", value: "mars" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("kind");
    const badId = await merchant.api.json("/api/allowlist/not-a-uuid", { method: "DELETE" });
    expect(badId.status).toBe(400);
    expect(JSON.stringify(badId.body)).toContain("id");
    expect((await new TestClient(t.baseUrl).json("/api/allowlist")).status).toBe(401);

    // Another account neither sees nor removes it.
    expect(await other.api.json("/api/allowlist")).toMatchObject({ status: 200, body: [] });
    const foreign = await other.api.json(`/api/allowlist/${added.body.id}`, { method: "DELETE" });
    expect(foreign.status).toBe(404);
    expect((await merchant.api.json<AllowEntryView[]>("/api/allowlist")).body).toHaveLength(1);

    const removed = await merchant.api.json(`/api/allowlist/${added.body.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    expect(await merchant.api.json("/api/allowlist")).toMatchObject({ status: 200, body: [] });
    const again = await merchant.api.json(`/api/allowlist/${added.body.id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("reads and settles a charge's review by API key, once, and only the account's own", async () => {
    const merchant = await signedInMerchant(t, `charge-rest-${kind}@example.com`);
    const backend = await backendOf(t, merchant);
    const stripe = await connectStripe(merchant);
    await reviewHighRiskCharges(merchant);
    const charge = buildCharge({ riskScore: 88, riskLevel: "elevated", email: "c@buyer.example" });
    const sent = await deliver(
      t,
      stripe.path,
      buildEvent("charge.succeeded", charge),
      stripe.webhookSecret,
    );
    expect(sent.status).toBe(200);

    const url = `/api/v1/charges/${charge.id}`;
    const read = await backend.client.json<ChargeReviewDetail>(url);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({
      kind: "charge",
      id: charge.id,
      email: "c@buyer.example",
      reasons: [{ rule: "rule_high_risk", action: "review" }],
      review: { status: "open", by: null },
      labels: [],
    });

    // Another account's key: no such charge, to read or to settle; and it stays open.
    const otherBackend = await backendOf(t, await signedInMerchant(t, `cr-other-${kind}@ex.com`));
    expect((await otherBackend.client.json(url)).status).toBe(404);
    const foreign = await otherBackend.client.json(`${url}/decision`, {
      body: { decision: "approve" },
    });
    expect(foreign.status).toBe(404);
    expect((await backend.client.json("/api/v1/charges/ch_nothing_here")).status).toBe(404);
    expect((await new TestClient(t.baseUrl).json(url)).status).toBe(401);

    const bad = await backend.client.json(`${url}/decision`, { body: { decision: "maybe" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("decision");
    const denied = await backend.client.json<ChargeReviewDetail>(`${url}/decision`, {
      body: { decision: "deny", note: "card reported stolen" },
    });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    expect(denied.body.review).toMatchObject({ status: "denied", note: "card reported stolen" });
    expect(denied.body.review.by).toMatch(/^API key /);
    const twice = await backend.client.json(`${url}/decision`, { body: { decision: "approve" } });
    expect(twice.status).toBe(409);
    expect(JSON.stringify(twice.body)).toContain("already denied");
    const queue = await merchant.browser.query("review.queue", {});
    expect(queue).toMatchObject({ ok: true, data: { items: [] } });
  });
});
