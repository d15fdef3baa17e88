/**
 * POST /webhooks/stripe/:endpointId — Stripe's deliveries for one merchant. The signature is
 * checked on the raw bytes (so this plugin parses bodies as buffers, and only here), and the
 * answer is 2xx only after the event and its effects are committed.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Services } from "../../services.ts";

const ZParams = z.object({ endpointId: z.string().min(1).max(100) });

export async function stripeWebhookPlugin(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post("/webhooks/stripe/:endpointId", async (request) => {
    const { endpointId } = ZParams.parse(request.params);
    const signature = request.headers["stripe-signature"];
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    try {
      const { status } = await services.stripeWebhooks.receive(
        endpointId,
        raw,
        typeof signature === "string" && signature !== "" ? signature : undefined,
      );
      services.metrics.webhook(status);
      return { received: true, status };
    } catch (error) {
      services.metrics.webhook("rejected");
      throw error;
    }
  });
}
