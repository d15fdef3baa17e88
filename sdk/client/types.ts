/**
 * The typed client's surface, in types only. The screening input and answer come from the
 * shared zod schema (the same one the server validates with); nothing here names server
 * internals. The packed client (sdk/package) copies this file into its client.d.ts.
 */
import type { ScreenInput, ScreenResult } from "../../shared/schemas/screening.ts";

export type { ScreenInput, ScreenResult };

export type WardenClientOptions = {
  /** Warden's base URL, e.g. "http://localhost:3000". */
  url: string;
  /** A secret API key (wdn_sk_…): keep it on your server, never in a page. */
  apiKey: string;
  /**
   * How long one screening may take before the answer is degraded (default 300 ms: above the
   * slowest 1% of nearly every run measured within Warden's capacity; the package README says
   * why).
   */
  timeoutMs?: number;
  /**
   * When Warden is slow or unreachable: "allow" (default) answers
   * `{ decision: "allow", degraded: true }` so your signup keeps working; "throw" throws a
   * WardenError with code "TIMEOUT" or "UNAVAILABLE".
   */
  onError?: "allow" | "throw";
  /**
   * Called on every outage (a timeout, a network error, a 5xx), whatever `onError` says, with
   * the error and how long the call took: alert on it. Warden answers bad input with a 4xx,
   * never a 5xx, so a 5xx is a bug in Warden (its fuzz suite looks for them) or a proxy in
   * front of it. An exception thrown here is caught and ignored: alerting never blocks a signup.
   */
  onDegraded?: (event: DegradedEvent) => void;
};

/** What `onDegraded` is told. */
export type DegradedEvent = {
  code: "TIMEOUT" | "UNAVAILABLE";
  message: string;
  /** Warden's (or a proxy's) HTTP status; null when no answer came. */
  status: number | null;
  tookMs: number;
};

/** Warden's answer, as the shared schema defines it. */
export type ScreenDecision = ScreenResult & { degraded: false };

/** What the client answers when Warden did not (timeout or outage) and onError is "allow". */
export type DegradedDecision = {
  degraded: true;
  decision: "allow";
  id: null;
  score: null;
  reasons: [];
  monitored: [];
  took_ms: number;
  /** Why Warden gave no answer. */
  error: { code: "TIMEOUT" | "UNAVAILABLE"; message: string };
};

export type ScreenAnswer = ScreenDecision | DegradedDecision;

/**
 * Why a call failed. TIMEOUT and UNAVAILABLE are Warden's side (thrown only with
 * onError: "throw"); the others are answers to the request itself (a bad field, a bad key)
 * and are always thrown, because they are bugs to fix, not outages to ride out.
 */
export type WardenErrorCode =
  | "TIMEOUT"
  | "UNAVAILABLE"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE";

export type WardenFieldIssue = { path: string; message: string };

export type WardenClient = {
  /** Asks Warden before an event happens: allow, review or block, with the reasons. */
  screen(input: ScreenInput): Promise<ScreenAnswer>;
};
