/**
 * Two-factor sign-in as REST, for scripts with `Authorization: Bearer <token>` from
 * POST /api/auth/login: the sign-in's second step (when login answered twoFactorRequired), and
 * a member's own enrolment, recovery codes and turning it off. Each row calls the two-factor
 * service, as the console's procedures do.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { MESSAGES } from "../../../shared/messages.ts";
import {
  ZRecoveryCodes,
  ZTwoFactorBegin,
  ZTwoFactorConfirm,
  ZTwoFactorDisable,
  ZTwoFactorEnrolment,
  ZTwoFactorRegenerate,
  ZTwoFactorStatus,
  ZTwoFactorVerified,
  ZVerifyTwoFactor,
} from "../../../shared/schemas/two-factor.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

/** The request's session (every route here needs one: access.ts has let it in by now). */
function sessionOf(request: FastifyRequest) {
  if (!request.session) throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
  return request.session;
}

const CODES_EXAMPLE = { recovery_codes: ["k7mq2-xv4ta", "…"] };

export function twoFactorRouteTable(services: Services): Route[] {
  const twoFactor = services.twoFactor;
  const user = (request: FastifyRequest) => sessionOf(request).user;
  return [
    route({
      method: "POST",
      url: "/auth/two-factor",
      tag: "auth",
      summary:
        "The sign-in's second step: after a login that answered twoFactorRequired, send the 6-digit code from the authenticator app (or a recovery code) with the same token",
      op: "auth.verifyTwoFactor",
      auth: "session",
      body: ZVerifyTwoFactor,
      response: ZTwoFactorVerified,
      errors: [429],
      examples: { body: { code: "123456" }, response: { ok: true, method: "totp" } },
      handler: ({ body }, request) =>
        twoFactor.verifySignIn(sessionOf(request), body.code, request.ip),
    }),
    route({
      method: "GET",
      url: "/two-factor",
      tag: "two-factor",
      summary: "Whether this person signs in with a second factor, and recovery codes left",
      op: "twoFactor.status",
      auth: "session",
      response: ZTwoFactorStatus,
      handler: (_, request) => twoFactor.status(user(request)),
    }),
    route({
      method: "POST",
      url: "/two-factor/begin",
      tag: "two-factor",
      summary:
        "Start enrolment (password required): a new secret for an authenticator app, as base32, an otpauth:// URI and a QR code",
      op: "twoFactor.begin",
      auth: "session",
      body: ZTwoFactorBegin,
      response: ZTwoFactorEnrolment,
      errors: [409, 429],
      handler: ({ body }, request) => twoFactor.begin(user(request), body),
    }),
    route({
      method: "POST",
      url: "/two-factor/confirm",
      tag: "two-factor",
      summary:
        "Turn two-factor sign-in on with a code from the app; the answer holds the 10 recovery codes, shown this once",
      op: "twoFactor.confirm",
      auth: "session",
      body: ZTwoFactorConfirm,
      response: ZRecoveryCodes,
      errors: [409, 429],
      examples: { body: { code: "123456" }, response: CODES_EXAMPLE },
      handler: ({ body }, request) => twoFactor.confirm(user(request), body.code, request.ip),
    }),
    route({
      method: "POST",
      url: "/two-factor/disable",
      tag: "two-factor",
      summary: "Turn two-factor sign-in off: the password and a current code (or a recovery code)",
      op: "twoFactor.disable",
      auth: "session",
      body: ZTwoFactorDisable,
      response: z.object({ ok: z.literal(true) }),
      errors: [429],
      handler: ({ body }, request) => twoFactor.disable(user(request), body, request.ip),
    }),
    route({
      method: "POST",
      url: "/two-factor/recovery-codes",
      tag: "two-factor",
      summary:
        "Replace every recovery code with 10 new ones (a current code or a recovery code required)",
      op: "twoFactor.regenerateCodes",
      auth: "session",
      body: ZTwoFactorRegenerate,
      response: ZRecoveryCodes,
      errors: [429],
      examples: { body: { code: "123456" }, response: CODES_EXAMPLE },
      handler: ({ body }, request) =>
        twoFactor.regenerateCodes(user(request), body.code, request.ip),
    }),
  ];
}

export async function twoFactorRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, twoFactorRouteTable(services), services);
}
