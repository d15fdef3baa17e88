/**
 * A local stand-in for the parts of Stripe's API that Warden calls. It records every request
 * (method, path, form body, idempotency key), behaves like Stripe for repeated idempotency
 * keys, and can be told to fail the next N calls, or any call a fault function picks (an error
 * status, or an answer lost on the way back after the work was done, as a timeout loses it).
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

/** What a fault function does to one call: answer an error, or do it and drop the answer. */
export type Fault =
  | { status: number; message?: string }
  | { drop: true }
  | { delayMs: number }
  | null;

export async function startStripeStandIn() {
  const calls: RecordedCall[] = [];
  const endpoints = new Map<string, { id: string; url: string; enabled_events: string[] }>();
  /** PaymentIntents captured meanwhile: a cancel of one is answered as Stripe answers it. */
  const capturedIntents = new Set<string>();
  /** Refunds made (not replayed), by charge. */
  const refundsMade = new Map<string, number>();
  let fault: (call: RecordedCall) => Fault = () => null;
  const dropped = new WeakSet<object>();
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
    const chosen = fault(call);
    if (chosen && "delayMs" in chosen) await new Promise((r) => setTimeout(r, chosen.delayMs));
    else if (chosen && "drop" in chosen) dropped.add(request.raw);
    else if (chosen)
      return reply.code(chosen.status).send({
        error: { type: "api_error", message: chosen.message ?? "Stripe fault" },
      });
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
    // As Stripe: a request refused before it ran (bad key) leaves no result to replay.
    const ran = reply.statusCode < 500 && reply.statusCode !== 401 && reply.statusCode !== 403;
    if (key && ran) {
      const id = `${request.method} ${request.url.split("?")[0]} ${key}`;
      if (!replies.has(id))
        replies.set(id, { status: reply.statusCode, body: JSON.parse(String(payload)) });
    }
    // The work is done and remembered; the answer never arrives (a timeout, to the caller).
    if (dropped.has(request.raw)) request.raw.socket.destroy();
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
    refundsMade.set(body.charge ?? "", (refundsMade.get(body.charge ?? "") ?? 0) + 1);
    return {
      id: nextId("re"),
      object: "refund",
      charge: body.charge,
      reason: body.reason,
      status: "succeeded",
    };
  });
  app.post<{ Params: { id: string } }>("/v1/payment_intents/:id/cancel", async (request, reply) => {
    if (capturedIntents.has(request.params.id))
      return reply.code(400).send({
        error: {
          type: "invalid_request_error",
          code: "payment_intent_unexpected_state",
          message:
            "You cannot cancel this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.",
          payment_intent: { id: request.params.id, object: "payment_intent", status: "succeeded" },
        },
      });
    return {
      id: request.params.id,
      object: "payment_intent",
      status: "canceled",
      cancellation_reason:
        (request.body as Record<string, string> | undefined)?.cancellation_reason ?? null,
    };
  });
  const eventsOf = (body: Record<string, string>) =>
    Object.entries(body)
      .filter(([k]) => k.startsWith("enabled_events"))
      .map(([, v]) => v);
  app.post("/v1/webhook_endpoints", async (request) => {
    const body = request.body as Record<string, string>;
    const endpoint = { id: nextId("we"), url: body.url ?? "", enabled_events: eventsOf(body) };
    endpoints.set(endpoint.id, endpoint);
    return {
      ...endpoint,
      object: "webhook_endpoint",
      secret: `whsec_${nextId("standin")}`,
      status: "enabled",
    };
  });
  app.get("/v1/webhook_endpoints", async () => ({
    object: "list",
    url: "/v1/webhook_endpoints",
    has_more: false,
    data: [...endpoints.values()].map((e) => ({ ...e, object: "webhook_endpoint" })),
  }));
  app.post<{ Params: { id: string } }>("/v1/webhook_endpoints/:id", async (request, reply) => {
    const endpoint = endpoints.get(request.params.id);
    if (!endpoint) return reply.code(404).send({ error: { type: "invalid_request_error" } });
    const events = eventsOf(request.body as Record<string, string>);
    if (events.length > 0) endpoint.enabled_events = events;
    return { ...endpoint, object: "webhook_endpoint", status: "enabled" };
  });
  app.delete<{ Params: { id: string } }>("/v1/webhook_endpoints/:id", async (request) => {
    endpoints.delete(request.params.id);
    return { id: request.params.id, object: "webhook_endpoint", deleted: true };
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
    /** Webhook endpoints registered on this "account". */
    endpoints,
    capturedIntents,
    refundsMade,
    /** Decides, per call, whether it fails (or loses its answer); null: behave. */
    setFault(next: (call: RecordedCall) => Fault) {
      fault = next;
    },
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
