/** Stripe clients per merchant key; the API base is configurable so tests use a stand-in. */
import Stripe from "stripe";
import { memo } from "./memo.ts";

export type StripeClientFactory = (secretKey: string) => Stripe;

/** The longest one Stripe call may take (the actions worker's lease is sized from it). */
export const CALL_TIMEOUT_MS = 20_000;

/**
 * One client per key, kept (up to 1,000 keys): a Stripe client holds only its settings, and
 * building one sets up every API resource, about 2 ms, which the actions worker paid for
 * every refund.
 */
export function createStripeClientFactory(apiBase?: string): StripeClientFactory {
  const target = apiBase ? new URL(apiBase) : undefined;
  return memo(
    (secretKey) =>
      new Stripe(secretKey, {
        // Warden retries outbound calls itself, durably (see stripe-actions.service.ts).
        maxNetworkRetries: 0,
        timeout: CALL_TIMEOUT_MS,
        telemetry: false,
        appInfo: { name: "Warden" },
        ...(target
          ? {
              host: target.hostname,
              port: Number(target.port || (target.protocol === "https:" ? 443 : 80)),
              protocol: target.protocol.replace(":", "") as "http" | "https",
            }
          : {}),
      }),
    1_000,
  );
}

/** A Stripe error that Stripe itself answered (4xx), as opposed to a network or server fault. */
export function isStripeAnswer(error: unknown): error is Stripe.errors.StripeError {
  const e = error as { type?: string; statusCode?: number };
  return (
    error instanceof Stripe.errors.StripeError &&
    typeof e.statusCode === "number" &&
    e.statusCode >= 400 &&
    e.statusCode < 500 &&
    e.statusCode !== 429 &&
    e.statusCode !== 409
  );
}

/** Where Stripe code gets a merchant's decrypted credentials (the settings service). */
export type StripeCredentials = {
  stripeCredentials(
    accountId: string,
  ): Promise<{ secretKey: string | null; webhookSecret: string | null }>;
};
