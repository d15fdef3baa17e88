/**
 * POST /webhooks/stripe/:endpointId — Stripe's deliveries for one merchant. The signature is
 * checked on the raw bytes (so this plugin parses bodies as buffers, and only here), and the
 * answer is 2xx only after the event and its effects are committed.
 */
import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import type { Services } from "../../services.ts";

/** Stripe's default tolerance: a signature older than this is refused (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const ZParams = z.object({ endpointId: z.string().min(1).max(100) });
// Only the signature helpers are used; they need no key and make no calls.
const verifier = new Stripe("sk_signature_checks_only", { telemetry: false });

export async function stripeWebhookPlugin(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post("/webhooks/stripe/:endpointId", async (request) => {
    const { endpointId } = ZParams.parse(request.params);
    const account = await services.stripeWebhooks.accountForEndpoint(endpointId);
    if (!account) throw new AppError("NOT_FOUND", "Unknown webhook endpoint.");
    const signature = request.headers["stripe-signature"];
    if (typeof signature !== "string" || signature === "") {
      throw new AppError("BAD_REQUEST", "Missing Stripe-Signature header.");
    }
    const secret = await services.stripeWebhooks.signingSecret(account.id);
    if (!secret) {
      throw new AppError(
        "BAD_REQUEST",
        "No webhook signing secret is set for this account: add it in Settings.",
      );
    }
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let event: Stripe.Event;
    try {
      event = verifier.webhooks.constructEvent(raw, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      throw new AppError("BAD_REQUEST", `Invalid Stripe signature: ${(error as Error).message}`);
    }
    const { status } = await services.stripeEvents.ingest(account.id, event);
    return { received: true, status };
  });
}
