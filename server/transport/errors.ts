/** Maps every error to what a client may see, in one place: HTTP status, tRPC code, body. */
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, type AppErrorCode, type FieldIssue } from "../lib/app-error.ts";

const TABLE: Record<AppErrorCode, { status: number; trpc: TRPC_ERROR_CODE_KEY }> = {
  BAD_REQUEST: { status: 400, trpc: "BAD_REQUEST" },
  UNAUTHORIZED: { status: 401, trpc: "UNAUTHORIZED" },
  FORBIDDEN: { status: 403, trpc: "FORBIDDEN" },
  NOT_FOUND: { status: 404, trpc: "NOT_FOUND" },
  CONFLICT: { status: 409, trpc: "CONFLICT" },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  TOO_MANY_REQUESTS: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  INTERNAL: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
};

const CODE_BY_TRPC = Object.fromEntries(
  Object.entries(TABLE).map(([code, { trpc }]) => [trpc, code as AppErrorCode]),
) as Partial<Record<TRPC_ERROR_CODE_KEY, AppErrorCode>>;

const CODE_BY_STATUS: Partial<Record<number, AppErrorCode>> = {
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
};

export const INTERNAL_MESSAGE = "Something went wrong on our side. Please try again.";

export type PublicError = {
  status: number;
  trpcCode: TRPC_ERROR_CODE_KEY;
  body: { error: { code: AppErrorCode; message: string; issues?: FieldIssue[] } };
  retryAfterSeconds?: number;
};

export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.join(".") || "(root)",
    message:
      issue.code === "unrecognized_keys" ? `Unknown key: ${issue.keys.join(", ")}` : issue.message,
  }));
}

function validationError(issues: FieldIssue[]): AppError {
  const first = issues[0];
  const message = first ? `${first.path}: ${first.message}` : "Invalid input";
  return new AppError("BAD_REQUEST", message, { issues });
}

/** Finds the AppError (or validation error) behind any thrown value; anything else is internal. */
export function toAppError(error: unknown): AppError {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current;
    if (current instanceof ZodError) return validationError(zodIssues(current));
    const candidate = current as {
      name?: string;
      code?: string;
      statusCode?: number;
      message?: string;
      cause?: unknown;
      validation?: unknown;
    };
    // Fastify's own client errors (bad JSON, body too large, ...) keep their 4xx.
    if (typeof candidate.statusCode === "number" && candidate.statusCode < 500) {
      return new AppError(
        CODE_BY_STATUS[candidate.statusCode] ?? "BAD_REQUEST",
        candidate.message ?? "Bad request",
      );
    }
    if (candidate.name === "TRPCError" && candidate.code && !candidate.cause) {
      const code = CODE_BY_TRPC[candidate.code as TRPC_ERROR_CODE_KEY];
      if (code && code !== "INTERNAL") return new AppError(code, candidate.message ?? code);
    }
    current = candidate.cause;
  }
  return new AppError("INTERNAL", INTERNAL_MESSAGE);
}

export function toPublicError(error: unknown): PublicError {
  const appError = toAppError(error);
  const { status, trpc } = TABLE[appError.code];
  const message = status >= 500 ? INTERNAL_MESSAGE : appError.message;
  return {
    status,
    trpcCode: trpc,
    body: { error: { code: appError.code, message, issues: appError.details.issues } },
    retryAfterSeconds: appError.details.retryAfterSeconds,
  };
}
