/**
 * A local stand-in for the parts of Stripe's API that Warden calls. It records every request
 * (method, path, form body, idempotency key), behaves like Stripe for repeated idempotency
 * keys, and can be told to fail the next N calls.
 */
import Fastify from "fastify";
import type Stripe from "stripe";

export type RecordedCall = {
  method: string;
  path: string;
  body: Record<string, string>;
  idempotencyKey?: string;
  authorization?: string;
};

export async function startStripeStandIn() {
  const calls: RecordedCall[] = [];
  const charges = new Map<string, Stripe.Charge>();
  const validKeys = new Set<string>();
  const replies = new Map<string, { status: number; body: unknown }>();
  let failures: { count: number; status: number; message: string } = {
    count: 0,
    status: 500,
    message: "",
  };

  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.addHook("preHandler", async (request, reply) => {
    const call: RecordedCall = {
      method: request.method,
      path: request.url.split("?")[0] ?? "",
      body: { ...((request.body as Record<string, string>) ?? {}), ...(request.query as object) },
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      authorization: request.headers.authorization,
    };
    calls.push(call);
    const key = call.authorization?.replace(/^Bearer /, "") ?? "";
    if (validKeys.size > 0 && !validKeys.has(key)) {
      return reply.code(401).send({
        error: {
          type: "invalid_request_error",
          message: `Invalid API Key provided: ${key.slice(0, 8)}***`,
        },
      });
    }
    if (failures.count > 0) {
      failures.count -= 1;
      return reply.code(failures.status).send({
        error: {
          type: failures.status >= 500 ? "api_error" : "invalid_request_error",
          message: failures.message,
        },
      });
    }
    // Stripe replays the first answer for a repeated idempotency key.
    if (call.idempotencyKey) {
      const previous = replies.get(`${call.method} ${call.path} ${call.idempotencyKey}`);
      if (previous)
        return reply
          .code(previous.status)
          .header("idempotent-replayed", "true")
          .send(previous.body);
    }
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const key = request.headers["idempotency-key"] as string | undefined;
    if (key && reply.statusCode < 500) {
      const id = `${request.method} ${request.url.split("?")[0]} ${key}`;
      if (!replies.has(id))
        replies.set(id, { status: reply.statusCode, body: JSON.parse(String(payload)) });
    }
    return payload;
  });

  let seq = 0;
  const nextId = (prefix: string) => `${prefix}_standin${String(++seq).padStart(6, "0")}`;

  app.get("/v1/balance", async () => ({
    object: "balance",
    available: [],
    pending: [],
    livemode: false,
  }));
  app.post("/v1/refunds", async (request) => {
    const body = request.body as Record<string, string>;
    return {
      id: nextId("re"),
      object: "refund",
      charge: body.charge,
      reason: body.reason,
      status: "succeeded",
    };
  });
  app.post<{ Params: { id: string } }>("/v1/payment_intents/:id/cancel", async (request) => ({
    id: request.params.id,
    object: "payment_intent",
    status: "canceled",
    cancellation_reason:
      (request.body as Record<string, string> | undefined)?.cancellation_reason ?? null,
  }));
  app.post("/v1/webhook_endpoints", async (request) => {
    const body = request.body as Record<string, string>;
    return {
      id: nextId("we"),
      object: "webhook_endpoint",
      url: body.url,
      secret: `whsec_${nextId("standin")}`,
      status: "enabled",
    };
  });
  app.get<{ Params: { id: string } }>("/v1/charges/:id", async (request, reply) => {
    const charge = charges.get(request.params.id);
    if (!charge)
      return reply.code(404).send({
        error: {
          type: "invalid_request_error",
          message: `No such charge: '${request.params.id}'`,
        },
      });
    return charge;
  });
  app.get("/v1/charges", async (request) => {
    const query = request.query as Record<string, string>;
    const limit = Number(query.limit ?? 10);
    const gte = Number(query["created[gte]"] ?? 0);
    const all = [...charges.values()]
      .filter((c) => c.created >= gte)
      .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    const start = query.starting_after
      ? all.findIndex((c) => c.id === query.starting_after) + 1
      : 0;
    const page = all.slice(start, start + limit);
    return { object: "list", url: "/v1/charges", has_more: start + limit < all.length, data: page };
  });

  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    /** Charges the list and retrieve endpoints serve. */
    charges,
    /** Only these keys are accepted once any is added (others get 401, as Stripe answers). */
    acceptKeys(...keys: string[]) {
      for (const key of keys) validKeys.add(key);
    },
    /** The next `count` calls answer `status` with `message`. */
    failNext(count: number, status = 500, message = "Stripe is having a bad day") {
      failures = { count, status, message };
    },
    callsTo(method: string, pathPrefix: string) {
      return calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix));
    },
    close: () => app.close(),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
