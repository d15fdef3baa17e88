import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";
import type { Services } from "../../services.ts";
import { toPublicError } from "../errors.ts";
import { sessionCookie } from "../http/session.plugin.ts";
import { type AppRouter, appRouter } from "./app.router.ts";
import type { Context } from "./init.ts";

/** The most calls one batch may carry; the client's httpBatchLink uses the same (trpc.ts). */
export const MAX_BATCH_SIZE = 10;

export async function trpcPlugin(
  app: FastifyInstance,
  { services, secureCookie }: { services: Services; secureCookie: boolean },
) {
  // tRPC's adapter reads multipart/form-data whole, outside Fastify's body limit. Our
  // procedures take JSON only, so anything else is refused before its body is read.
  app.addHook("onRequest", async (request, reply) => {
    if (request.method === "GET" || request.method === "HEAD") return;
    if (!hasBody(request) || mediaType(request) === "application/json") return;
    reply.header("connection", "close");
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "tRPC calls take application/json bodies only.");
  });
  // tRPC parses the body itself and calls a syntax error (an empty body too) a 500: check it
  // first. An empty body means no input, as JSON null: fine for procedures that take none.
  app.addHook("preHandler", async (request) => {
    if (request.body === "") request.body = "null";
    const raw = typeof request.body === "string" ? request.body : getInput(request);
    if (!raw) return;
    try {
      JSON.parse(raw);
    } catch {
      throw new AppError("BAD_REQUEST", "The request is not valid JSON.");
    }
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: appRouter,
      maxBatchSize: MAX_BATCH_SIZE,
      createContext: ({ req, res }): Context => ({
        services,
        caller: req.caller,
        session: req.session,
        ip: req.ip,
        sessionCookie: sessionCookie(res, secureCookie),
      }),
      // A 429 says when to come back, as the REST adapter's does.
      responseMeta({ errors }) {
        const wait = errors
          .map((error) => toPublicError(error).retryAfterSeconds)
          .find((seconds) => seconds !== undefined);
        return wait ? { headers: new Headers({ "retry-after": String(wait) }) } : {};
      },
      onError({ error, path, req }) {
        if (error.code === "INTERNAL_SERVER_ERROR") {
          req.log.error({ err: error.cause ?? error, path }, "procedure failed");
        }
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"],
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return (
    request.headers["transfer-encoding"] !== undefined ||
    (length !== undefined && length !== "0") ||
    request.headers["content-type"] !== undefined
  );
}

function mediaType(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function getInput(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.input === "string" ? query.input : undefined;
}
