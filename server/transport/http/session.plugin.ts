/**
 * Resolves the caller once per request, from `Authorization: Bearer <token>` or the session
 * cookie, and refuses cross-origin state changes authenticated by the cookie (CSRF).
 */
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../../lib/app-error.ts";
import { type Caller, sessionCaller } from "../../lib/caller.ts";
import { isApiKey } from "../../modules/api-keys/api-keys.service.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";

export const SESSION_COOKIE = "warden_session";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The routes a merchant's backend and warden.js call, with API keys alone. */
const API_KEY_ONLY = "/api/v1/";

declare module "fastify" {
  interface FastifyRequest {
    session: ValidSession | null;
    caller: Caller | null;
  }
}

export type SessionCookie = { set(token: string, expiresAt: Date): void; clear(): void };

type Options = { services: Services; publicUrl: string };

export const sessionPlugin = fp<Options>(async (app: FastifyInstance, { services, publicUrl }) => {
  await app.register(cookie);
  const secure = publicUrl.startsWith("https:");
  const ownOrigin = new URL(publicUrl).origin;

  app.decorateRequest("session", null);
  app.decorateRequest("caller", null);

  app.addHook("onRequest", async (request, reply) => {
    // A preflight's credentials count for nothing: it is answered before any key is looked up
    // or any budget spent (decision 013).
    if (request.method === "OPTIONS") return;
    const bearer = bearerToken(request);
    const cookieToken = request.cookies[SESSION_COOKIE];
    if (!bearer && cookieToken && !SAFE_METHODS.has(request.method)) {
      assertSameOrigin(request, ownOrigin);
    }
    // An API key is a merchant's backend: it never carries a session, and a cookie beside it
    // is ignored. An unknown or revoked key leaves the caller empty (401 where it matters).
    if (bearer && isApiKey(bearer)) {
      request.caller = await services.apiKeys.authenticate(bearer);
      return;
    }
    const token = bearer ?? cookieToken;
    // /api/v1/* serves a merchant's backend and warden.js: API keys only, so a session token
    // there, made up or not, costs no query.
    if (!token || request.url.startsWith(API_KEY_ONLY)) return;
    request.session = await services.sessions.validate(token);
    request.caller = request.session ? sessionCaller(request.session) : null;
    if (bearer) return;
    const jar = sessionCookie(reply, secure);
    if (!request.session) jar.clear();
    else if (request.session.extended) jar.set(token, request.session.expiresAt);
  });
});

export function sessionCookie(reply: FastifyReply, secure: boolean): SessionCookie {
  return {
    set(token, expiresAt) {
      reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure,
        expires: expiresAt,
      });
    },
    clear() {
      reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", path: "/", secure });
    },
  };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Lets a cookie-authenticated change through only from our own origin. */
function assertSameOrigin(request: FastifyRequest, ownOrigin: string): void {
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite === "same-origin") return;
  const origin = request.headers.origin;
  if (origin === ownOrigin) return;
  throw new AppError(
    "FORBIDDEN",
    "Cross-origin request refused: cookie-authenticated changes must come from this site.",
  );
}
