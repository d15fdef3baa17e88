/**
 * A Stripe delivery for one merchant's endpoint: find the account, check the signature on the
 * raw bytes with the account's signing secret, and ingest the event. The account and its
 * secret come from a cache that settings changes invalidate (endpoint-cache.ts).
 */
import Stripe from "stripe";
import type { ChangeFeed } from "../../../db/change-feed.ts";
import { AppError } from "../../../lib/app-error.ts";
import type { StripeCredentials } from "../../../lib/stripe-client.ts";
import { createEndpointCache } from "./endpoint-cache.ts";
import type { StripeEventsRepository } from "./stripe-events.repository.ts";
import type { IngestStatus, StripeIngestService } from "./stripe-ingest.service.ts";

/** Stripe's default tolerance: a signature older than this is refused (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

// Only the signature helpers are used; they need no key and make no calls.
const verifier = new Stripe("sk_signature_checks_only", { telemetry: false });

type Deps = {
  repo: StripeEventsRepository;
  credentials: StripeCredentials;
  ingest: StripeIngestService;
  changes: ChangeFeed;
  now: () => Date;
};

/** The account's webhook URL: PUBLIC_URL/webhooks/stripe/<endpointId>. */
export function createWebhookUrls(repo: StripeEventsRepository, publicUrl: string) {
  return async (accountId: string): Promise<string> =>
    `${publicUrl}/webhooks/stripe/${(await repo.findEndpointId(accountId)).webhookEndpointId}`;
}

export function createStripeWebhooksService({ repo, credentials, ingest, changes, now }: Deps) {
  const endpoints = createEndpointCache({
    async lookup(endpointId) {
      const account = await repo.findAccountByEndpoint(endpointId);
      if (!account) return null;
      const { webhookSecret } = await credentials.stripeCredentials(account.id);
      return { accountId: account.id, webhookSecret };
    },
    changes,
    now,
  });

  return {
    endpoints,

    async receive(
      endpointId: string,
      raw: Buffer,
      signature: string | undefined,
    ): Promise<{ status: IngestStatus }> {
      const endpoint = await endpoints.get(endpointId);
      if (!endpoint) throw new AppError("NOT_FOUND", "Unknown webhook endpoint.");
      if (!signature) throw new AppError("BAD_REQUEST", "Missing Stripe-Signature header.");
      const secret = endpoint.webhookSecret;
      if (!secret) {
        throw new AppError(
          "BAD_REQUEST",
          "No webhook signing secret is set for this account: add it in Settings.",
        );
      }
      let event: Stripe.Event;
      try {
        event = verifier.webhooks.constructEvent(
          raw,
          signature,
          secret,
          SIGNATURE_TOLERANCE_SECONDS,
        );
      } catch (error) {
        throw new AppError("BAD_REQUEST", `Invalid Stripe signature: ${(error as Error).message}`);
      }
      return ingest.ingest(endpoint.accountId, event);
    },
  };
}

export type StripeWebhooksService = ReturnType<typeof createStripeWebhooksService>;
