/**
 * Makes what a request does part of it (lib/request-context.ts), so every log line it causes
 * carries its id, whichever logger writes it. Entered in the first onRequest hook; Fastify
 * carries it over the body's reading itself (its content-type parser runs in an AsyncResource
 * of the request), so later hooks and the handler stay inside it.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import fp from "fastify-plugin";
import { runInRequest } from "../../lib/request-context.ts";

export const requestContextPlugin = fp(async (app: FastifyInstance) => {
  app.addHook(
    "onRequest",
    (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      runInRequest({ id: request.id, log: request.log }, done);
    },
  );
});
