import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeStandIn, startStripeStandIn } from "../../scripts/lib/stripe-stand-in.ts";
import { createStripeClientFactory } from "./stripe-client.ts";

describe("createStripeClientFactory", () => {
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
  });
  afterAll(() => stripe.close());

  it("keeps one client per key, and each key's calls carry that key", async () => {
    const stripeFor = createStripeClientFactory(stripe.url);
    const [a, b] = ["sk_test_key_a", "sk_test_key_b"];
    expect(stripeFor(a)).toBe(stripeFor(a));
    expect(stripeFor(b)).not.toBe(stripeFor(a));

    // Interleaved and at once: a kept client must never answer with another merchant's key.
    await Promise.all(
      [a, b, a, b].map((key, i) =>
        stripeFor(key).refunds.create({ charge: `ch_${i}` }, { idempotencyKey: `k${i}` }),
      ),
    );
    const byCharge = new Map(
      stripe.calls
        .filter((call) => call.path === "/v1/refunds")
        .map((call) => [call.body.charge, call.authorization]),
    );
    expect([0, 1, 2, 3].map((i) => byCharge.get(`ch_${i}`))).toEqual(
      [a, b, a, b].map((key) => `Bearer ${key}`),
    );
  });

  it("gives factories for different API bases their own clients", () => {
    const key = "sk_test_key_c";
    expect(createStripeClientFactory(stripe.url)(key)).not.toBe(
      createStripeClientFactory("http://127.0.0.1:9")(key),
    );
  });
});
