/**
 * tRPC building blocks: the context (one caller identity, built once per request, or without
 * HTTP for tests and the REST adapter), error mapping, and the procedure builders: public,
 * protected (a console session) and apiKey (a merchant's backend).
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { type Caller, secretKeyCaller } from "../../lib/caller.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import { pass } from "../access.ts";
import { toPublicError } from "../errors.ts";
import type { SessionCookie } from "../http/session.plugin.ts";

/** What a procedure may know about the caller and how it may touch the session cookie. */
export type Context = {
  services: Services;
  caller: Caller | null;
  /** The console session behind a session caller (logout and password change need its id). */
  session: ValidSession | null;
  ip: string;
  sessionCookie: SessionCookie;
};

/** A context without HTTP, for createCaller in tests and for the REST adapter. */
export function createContextInner(
  partial: Pick<Context, "services"> & Partial<Omit<Context, "services">>,
): Context {
  return {
    caller: null,
    session: null,
    ip: "127.0.0.1",
    sessionCookie: { set() {}, clear() {} },
    ...partial,
  };
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const pub = toPublicError(error);
    return {
      code: shape.code,
      message: pub.body.error.message,
      data: {
        code: shape.data.code,
        httpStatus: pub.status,
        path: shape.data.path,
        issues: pub.body.error.issues,
      },
    };
  },
});

/** Re-throws an AppError (or validation error) from below as the matching tRPC code. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const pub = toPublicError(result.error);
    if (pub.trpcCode !== result.error.code) {
      throw new TRPCError({
        code: pub.trpcCode,
        message: pub.body.error.message,
        cause: result.error,
      });
    }
  }
  return result;
});

/** Thrown past `pass` so a failed call writes no audit event; its result is returned as is. */
const FAILED = Symbol("failed");

/**
 * Every procedure passes the one gate (transport/access.ts), named by its path: the caller's
 * role is checked there and a change's audit event written there, as for the REST routes.
 */
const gate = t.middleware(async ({ ctx, path, getRawInput, next }) => {
  let failure: Awaited<ReturnType<typeof next>> | null = null;
  try {
    return await pass(path, ctx, await getRawInput(), async () => {
      const result = await next();
      if (!result.ok) {
        failure = result;
        throw FAILED;
      }
      return result;
    });
  } catch (error) {
    if (error === FAILED && failure) return failure;
    throw error;
  }
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors).use(gate);

/** A signed-in console user: `ctx.user` and `ctx.session` are set from here on. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.caller?.via !== "session" || !ctx.session) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Please log in." });
  }
  return next({
    ctx: { ...ctx, caller: ctx.caller, session: ctx.session, user: ctx.session.user },
  });
});

/**
 * A merchant's backend holding a secret API key: `ctx.caller` is set. A console session
 * does not pass, and neither does a publishable key (it can only collect).
 */
export const apiKeyProcedure = publicProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, caller: secretKeyCaller(ctx.caller) } }),
);
