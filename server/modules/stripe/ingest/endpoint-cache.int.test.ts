/**
 * The webhook endpoint cache keeps the signing secret in memory; a rotated secret must still
 * take effect at once, in this instance and (through NOTIFY) in another on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../../../../test/fixtures/stripe.ts";
import { DB_KINDS, openTestDatabase } from "../../../../test/helpers/databases.ts";
import { signedInMerchant } from "../../../../test/helpers/merchants.ts";
import { connectStripe, deliver } from "../../../../test/helpers/stripe-webhooks.ts";
import { startTestApp, type TestApp } from "../../../../test/helpers/test-app.ts";
import type { Database } from "../../../db/database.ts";

const chargeEvent = () => buildEvent("charge.succeeded", buildCharge({ riskScore: 5 }));

describe.each(DB_KINDS)("webhook signing secret on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("takes a rotated secret at once and refuses the old one", async () => {
    const merchant = await signedInMerchant(t, `rotate-${kind}@example.com`);
    const { path } = await connectStripe(merchant, "whsec_rotateOld1");
    expect((await deliver(t, path, chargeEvent(), "whsec_rotateOld1")).status).toBe(200);

    await connectStripe(merchant, "whsec_rotateNew1");
    const old = await deliver(t, path, chargeEvent(), "whsec_rotateOld1");
    expect(old.status).toBe(400);
    expect(JSON.stringify(old.body)).toMatch(/Invalid Stripe signature/);
    expect((await deliver(t, path, chargeEvent(), "whsec_rotateNew1")).status).toBe(200);
  });

  it("does not keep endpoints that do not exist", async () => {
    const before = t.app.services.stripeWebhooks.endpoints.size();
    for (let i = 0; i < 50; i++) {
      const response = await deliver(
        t,
        `/webhooks/stripe/random-${i}`,
        chargeEvent(),
        "whsec_unknown1",
      );
      expect(response.status).toBe(404);
    }
    expect(t.app.services.stripeWebhooks.endpoints.size()).toBe(before);
  });
});

describe.runIf(DB_KINDS.includes("postgres"))("webhook secret across instances (postgres)", () => {
  let database: Database;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    // One install: both instances share the key that seals the secrets.
    const env = { ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64") };
    first = await startTestApp("postgres", { database, env });
    second = await startTestApp("postgres", { database, env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  it("a secret rotated through one instance is the one the other checks", async () => {
    const merchant = await signedInMerchant(first, "rotate-two@example.com");
    const { path } = await connectStripe(merchant, "whsec_twoOld123");
    // The second instance now holds the old secret in its cache.
    expect((await deliver(second, path, chargeEvent(), "whsec_twoOld123")).status).toBe(200);

    await connectStripe(merchant, "whsec_twoNew123");
    await expect
      .poll(async () => (await deliver(second, path, chargeEvent(), "whsec_twoNew123")).status, {
        timeout: 5000,
      })
      .toBe(200);
    expect((await deliver(second, path, chargeEvent(), "whsec_twoOld123")).status).toBe(400);
  });
});
