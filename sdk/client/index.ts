/**
 * `warden/client`: screens events from a merchant's backend over tRPC (`screening.screen`).
 * Fails open by default: a timeout or an outage answers `{ decision: "allow", degraded: true }`
 * so Warden can never take a signup form down; a 4xx (bad input, bad key) is thrown, because
 * it is a bug in the caller that retrying will not fix.
 */
import { createTRPCUntypedClient, httpLink, TRPCClientError } from "@trpc/client";
import type {
  DegradedDecision,
  ScreenAnswer,
  ScreenDecision,
  ScreenInput,
  ScreenResult,
  WardenClient,
  WardenClientOptions,
  WardenErrorCode,
  WardenFieldIssue,
} from "./types.ts";

/** Checks a decision webhook's Warden-Signature header (shared/webhook-signature.ts). */
export { verifyWebhook } from "../../shared/webhook-signature.ts";
export type * from "./types.ts";

export class WardenError extends Error {
  constructor(
    readonly code: WardenErrorCode,
    message: string,
    /** Warden's HTTP status, or null when no answer came. */
    readonly status: number | null = null,
    /** For BAD_REQUEST: each field and what is wrong with it. */
    readonly issues: WardenFieldIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WardenError";
  }
}

const ANSWER_CODES: Partial<Record<number, WardenErrorCode>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

export function createWardenClient(options: WardenClientOptions): WardenClient {
  const { url, apiKey, timeoutMs = 300, onError = "allow", onDegraded } = options;
  if (typeof url !== "string" || !isHttpUrl(url)) {
    throw new TypeError(`createWardenClient: url must be an http(s) URL, got ${String(url)}`);
  }
  if (typeof apiKey !== "string" || apiKey.length === 0) {
    throw new TypeError("createWardenClient: apiKey must be your secret key (wdn_sk_…)");
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError("createWardenClient: timeoutMs must be a positive number");
  }
  if (onError !== "allow" && onError !== "throw") {
    throw new TypeError('createWardenClient: onError must be "allow" or "throw"');
  }
  if (onDegraded !== undefined && typeof onDegraded !== "function") {
    throw new TypeError("createWardenClient: onDegraded must be a function");
  }
  // Node loads its fetch on first use (a few hundred ms on a busy machine): load it now, so
  // the first screening's timeout is spent waiting for Warden, not for that.
  globalThis.fetch?.("data:,").then(
    (response) => response.arrayBuffer(),
    () => undefined,
  );
  const trpc = createTRPCUntypedClient({
    links: [
      httpLink({
        url: `${url.replace(/\/+$/, "")}/trpc`,
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    ],
  });

  return {
    async screen(input: ScreenInput): Promise<ScreenAnswer> {
      const started = performance.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        const result = (await trpc.mutation("screening.screen", input, {
          signal: controller.signal,
        })) as ScreenResult;
        return { ...result, degraded: false } satisfies ScreenDecision;
      } catch (cause) {
        const error = toWardenError(cause, controller.signal.aborted, timeoutMs);
        if (!isOutage(error)) throw error;
        const tookMs = performance.now() - started;
        try {
          onDegraded?.({ code: error.code, message: error.message, status: error.status, tookMs });
        } catch {
          // The merchant's alerting failed; the signup must not.
        }
        if (onError === "throw") throw error;
        return degraded(error, tookMs);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

function isOutage(error: WardenError): error is WardenError & { code: "TIMEOUT" | "UNAVAILABLE" } {
  return error.code === "TIMEOUT" || error.code === "UNAVAILABLE";
}

function degraded(
  error: WardenError & { code: "TIMEOUT" | "UNAVAILABLE" },
  tookMs: number,
): DegradedDecision {
  return {
    degraded: true,
    decision: "allow",
    id: null,
    score: null,
    reasons: [],
    monitored: [],
    took_ms: tookMs,
    error: { code: error.code, message: error.message },
  };
}

/** Sorts a failed call into Warden's answer to the request (4xx) or Warden's absence. */
function toWardenError(cause: unknown, timedOut: boolean, timeoutMs: number): WardenError {
  if (timedOut) {
    return new WardenError("TIMEOUT", `Warden did not answer within ${timeoutMs} ms`, null, [], {
      cause,
    });
  }
  const data = cause instanceof TRPCClientError ? (cause.data as ErrorData | undefined) : undefined;
  // A proxy's 502 or a bare 500 has no tRPC body: its status is still on the response.
  const response = cause instanceof TRPCClientError ? (cause.meta?.response as Response) : null;
  const status =
    typeof data?.httpStatus === "number"
      ? data.httpStatus
      : typeof response?.status === "number"
        ? response.status
        : null;
  const code = status === null ? undefined : ANSWER_CODES[status];
  if (code && cause instanceof Error) {
    return new WardenError(code, cause.message, status, data?.issues ?? [], { cause });
  }
  const why = status === null ? "no answer" : `HTTP ${status}`;
  return new WardenError("UNAVAILABLE", `Warden is unavailable (${why})`, status, [], { cause });
}

type ErrorData = { httpStatus?: number; issues?: WardenFieldIssue[] };
