/** Connects a test merchant to the Stripe stand-in and delivers signed events to Warden. */
import Stripe from "stripe";
import { expect } from "vitest";
import type { Merchant } from "./merchants.ts";
import type { TestApp } from "./test-app.ts";

const signer = new Stripe("sk_test_signing_only", { telemetry: false });

export const TEST_SECRET_KEY = "sk_test_51WardenTestKey0000000000000000";

/** Saves a secret key and signing secret; returns the account's webhook path. */
export async function connectStripe(
  merchant: Merchant,
  webhookSecret = `whsec_test_${merchant.accountId.replace(/-/g, "")}`,
) {
  const saved = await merchant.api.json<{ stripe_webhook_url: string }>("/api/settings", {
    method: "PUT",
    body: {
      app_name: "Test shop",
      contact_email: merchant.email,
      stripe_secret: TEST_SECRET_KEY,
      stripe_publishable: "pk_test_51WardenTestKey",
      stripe_webhook_secret: webhookSecret,
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const path = new URL(saved.body.stripe_webhook_url).pathname;
  return { path, webhookSecret };
}

/** POSTs `event` signed with `secret` (at `timestamp`, default now); returns status and body. */
export async function deliver(
  t: TestApp,
  path: string,
  event: Stripe.Event,
  secret: string,
  options: {
    timestamp?: number;
    tamper?: (payload: string) => string;
    signature?: string | null;
  } = {},
) {
  const payload = JSON.stringify(event);
  const header =
    options.signature === undefined
      ? signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp })
      : options.signature;
  const response = await fetch(`${t.baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(header === null ? {} : { "stripe-signature": header }),
    },
    body: options.tamper ? options.tamper(payload) : payload,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
