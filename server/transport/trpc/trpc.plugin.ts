import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.ts";
import { toPublicError } from "../errors.ts";
import { sessionCookie } from "../http/session.plugin.ts";
import { type AppRouter, appRouter } from "./app.router.ts";
import type { Context } from "./init.ts";

export async function trpcPlugin(
  app: FastifyInstance,
  { services, secureCookie }: { services: Services; secureCookie: boolean },
) {
  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: appRouter,
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
