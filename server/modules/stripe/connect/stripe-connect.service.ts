/**
 * Connecting a merchant's Stripe account: a new secret key is checked against Stripe before
 * it is saved, and Warden can register its own webhook endpoint with the merchant's key,
 * getting back the signing secret. The settings service decides when to call these. Saving
 * the key again reuses the endpoint already registered for Warden's URL rather than adding
 * another (whose new secret would leave the older endpoints failing until Stripe disables them).
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

    /**
     * Makes sure `url` is registered for the events Warden handles. Returns the signing secret
     * of a new endpoint, or null when the existing one was kept (its secret is the stored one).
     * Stripe shows a secret only at creation, so without a stored secret it registers anew.
     */
    async registerEndpoint(
      secretKey: string,
      url: string,
      { haveSecret }: { haveSecret: boolean },
    ): Promise<string | null> {
      const stripe = stripeFor(secretKey);
      const events = [...HANDLED_EVENTS] as Stripe.WebhookEndpointCreateParams.EnabledEvent[];
      const existing = (
        await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })
      ).filter((endpoint) => endpoint.url === url);
      const [keep, ...extra] = haveSecret ? existing : [];
      for (const endpoint of haveSecret ? extra : existing) {
        await stripe.webhookEndpoints.del(endpoint.id);
      }
      if (keep) {
        await stripe.webhookEndpoints.update(keep.id, { enabled_events: events, disabled: false });
        return null;
      }
      const created = await stripe.webhookEndpoints.create({
        url,
        enabled_events: events,
        description: "Warden",
      });
      return created.secret ?? null;
    },
  };
}

export type StripeConnectService = ReturnType<typeof createStripeConnectService>;
