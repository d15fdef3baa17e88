/**
 * Connecting a merchant's Stripe account: a new secret key is checked against Stripe before
 * it is saved, and Warden can register its own webhook endpoint with the merchant's key,
 * getting back the signing secret. The settings service decides when to call these.
 */
import type Stripe from "stripe";
import { AppError } from "../../../lib/app-error.ts";
import { isStripeAnswer, type StripeClientFactory } from "../../../lib/stripe-client.ts";
import { HANDLED_EVENTS } from "../ingest/apply-event.ts";

export function createStripeConnectService({ stripeFor }: { stripeFor: StripeClientFactory }) {
  return {
    /** Throws a 400 naming stripe_secret when Stripe refuses the key or cannot be reached. */
    async checkKey(secretKey: string): Promise<void> {
      try {
        await stripeFor(secretKey).balance.retrieve();
      } catch (error) {
        const message = (error as Error).message;
        const reason = isStripeAnswer(error)
          ? `Stripe rejected this key: ${message}`
          : `Could not reach Stripe to check this key: ${message}`;
        throw new AppError("BAD_REQUEST", `stripe_secret: ${reason}`, {
          issues: [{ path: "stripe_secret", message: reason }],
        });
      }
    },

    /** Registers `url` for the events Warden handles; returns the endpoint's signing secret. */
    async registerEndpoint(secretKey: string, url: string): Promise<string | null> {
      const endpoint = await stripeFor(secretKey).webhookEndpoints.create({
        url,
        enabled_events: [...HANDLED_EVENTS] as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
        description: "Warden",
      });
      return endpoint.secret ?? null;
    },
  };
}

export type StripeConnectService = ReturnType<typeof createStripeConnectService>;
