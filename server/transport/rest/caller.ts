/** The REST adapter reaches services through the same tRPC procedures, with the request's caller. */
import type { FastifyRequest } from "fastify";
import type { Services } from "../../services.ts";
import { createCaller } from "../trpc/app.router.ts";
import { createContextInner } from "../trpc/init.ts";

export function callerFor(request: FastifyRequest, services: Services) {
  return createCaller(
    createContextInner({
      services,
      caller: request.caller,
      session: request.session,
      ip: request.ip,
    }),
  );
}
