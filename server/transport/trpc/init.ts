/**
 * tRPC building blocks: the context (one caller identity, built once per request, or without
 * HTTP for tests), error mapping, and the gate every procedure passes (procedures.ts builds
 * each one from its operation's row).
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { Caller } from "../../lib/caller.ts";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import { pass } from "../access.ts";
import { toPublicError } from "../errors.ts";
import type { SessionCookie } from "../http/session.plugin.ts";
import type { AccessRule } from "../operation.ts";

/** What a procedure may know about the caller and how it may touch the session cookie. */
export type Context = {
  services: Services;
  caller: Caller | null;
  /** The console session behind a session caller (logout and password change need its id). */
  session: ValidSession | null;
  ip: string;
  sessionCookie: SessionCookie;
};

/** A context without HTTP, for createCaller in tests. */
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
 * Every procedure passes the one gate (transport/access.ts) for its operation: the caller's
 * role is checked there, before the input is read, and a change's audit event written there,
 * as for the REST routes. The caller it lets in is the one the procedure is handed.
 */
function gate(rule: AccessRule) {
  return t.middleware(async ({ ctx, getRawInput, next }) => {
    let failure: Awaited<ReturnType<typeof next>> | null = null;
    try {
      return await pass(rule, ctx, await getRawInput(), async (caller) => {
        const result = await next({ ctx: { ...ctx, caller } });
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
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** The procedure of one operation, before its input, output and call (procedures.ts). */
export const gated = (rule: AccessRule) => t.procedure.use(mapErrors).use(gate(rule));
/** What every procedure's type shares: the router's meta and error shape. */
export type RootTypes = typeof t._config.$types;
