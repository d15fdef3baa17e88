/** tRPC building blocks: context, error mapping and the procedures every router uses. */
import { initTRPC, TRPCError } from "@trpc/server";
import type { ValidSession } from "../../modules/auth/session.service.ts";
import type { Services } from "../../services.ts";
import { toPublicError } from "../errors.ts";

/** What a procedure may know about the caller and how it may touch the session cookie. */
export type Context = {
  services: Services;
  session: ValidSession | null;
  ip: string;
  sessionCookie: { set(token: string, expiresAt: Date): void; clear(): void };
};

/** A context without HTTP, for createCaller in tests and for the REST adapter. */
export function createContextInner(
  partial: Pick<Context, "services"> & Partial<Omit<Context, "services">>,
): Context {
  return {
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

/** Turns an AppError (or validation error) thrown below into the matching tRPC code. */
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

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Please log in." });
  }
  return next({ ctx: { ...ctx, session: ctx.session, user: ctx.session.user } });
});
