/**
 * The browser collector (warden.js): what it POSTs to /api/v1/collect with a publishable key,
 * and the token it gets back for the merchant's backend to pass as `signals` to
 * /api/v1/screen. Strict: an unknown key is a 400 naming it. The browser script itself does
 * not import this file (no zod in a 15 KB budget); the field names here are its contract.
 */
import { z } from "zod";
import { storableString } from "./storable.ts";

/** How long a collected token can be screened, and that it can be screened once. */
export const SIGNALS_TOKEN_TTL_MS = 10 * 60 * 1000;
export const SIGNALS_TOKEN_PREFIX = "wdn_sig_";
/** The largest collect body accepted, in bytes (a real one is about 400). */
export const COLLECT_BODY_LIMIT = 8 * 1024;

const IANA_ZONE = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const count = z
  .number({ message: "must be a whole number" })
  .int("must be a whole number")
  .min(0, "must not be negative")
  .max(1_000_000, "is too large");
const millis = z
  .number({ message: "must be a number of milliseconds" })
  .min(0, "must not be negative")
  .max(86_400_000, "is too large");
const url = storableString()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
    message: "must be an absolute http(s) URL",
  });

/** How the form the collector watched was filled, up to the moment token() was called. */
export const ZBehavior = z.strictObject({
  /** From the first focus, key or pointer press in the form to its submit; null: none. */
  time_to_submit_ms: millis.nullable(),
  /** Pointer moves and presses on the page while the form was watched. */
  pointer_events: count,
  /** Key presses in the form. */
  key_events: count,
  /** Standard deviation of the intervals between key presses; null under three presses. */
  key_interval_sd_ms: millis.nullable(),
  paste_count: count,
});
export type Behavior = z.infer<typeof ZBehavior>;

export const ZCollectInput = z.strictObject({
  /** The collector's own hash of stable browser attributes (docs/decisions/006-collector.md). */
  device_id: z
    .string({ message: "must be a string" })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, "must be 8 to 100 letters, digits, _ or -")
    .optional(),
  timezone: z
    .string({ message: "must be a string" })
    .max(64, "must be at most 64 characters")
    .regex(IANA_ZONE, "must be an IANA time zone name")
    .optional(),
  /** The page, without its query string or fragment. */
  url: url.optional(),
  /** document.referrer, without its query string or fragment. */
  referrer: url.optional(),
  webdriver: z.boolean({ message: "must be true or false" }),
  /** Absent when no form was watched. */
  behavior: ZBehavior.optional(),
});
export type CollectInput = z.infer<typeof ZCollectInput>;

/** The caps on what is kept of a collect request's own headers. */
export const REQUEST_SIGNAL_LIMITS = {
  userAgent: 512,
  brands: 10,
  brand: 64,
  version: 32,
} as const;
const printable = (max: number) =>
  z
    .string({ message: "must be a string" })
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\x20-\x7e]*$/, "must be printable ASCII");

/**
 * What the collect request itself carried, read by Warden from its headers (never from the
 * body: the page cannot set it). Null fields: the header was not sent, or was not readable.
 */
export const ZRequestSignals = z.strictObject({
  /** Sent over https from an https page: only then must a Chromium browser send client hints. */
  secure: z.boolean({ message: "must be true or false" }),
  /** The request's own User-Agent, cut to 512 characters. */
  user_agent: printable(REQUEST_SIGNAL_LIMITS.userAgent).nullable(),
  /** Whether an Accept-Language header was sent at all. */
  accept_language: z.boolean({ message: "must be true or false" }),
  /** Its first language tag ("de-DE"); null without one ("*", or no header). */
  language: z
    .string({ message: "must be a string" })
    .regex(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,4}$/, "must be a language tag")
    .nullable(),
  /** sec-ch-ua's brands and their versions. */
  ch_ua: z
    .array(
      z.strictObject({
        brand: printable(REQUEST_SIGNAL_LIMITS.brand),
        version: printable(REQUEST_SIGNAL_LIMITS.version),
      }),
    )
    .max(REQUEST_SIGNAL_LIMITS.brands, `must have at most ${REQUEST_SIGNAL_LIMITS.brands} brands`)
    .nullable(),
  /** sec-ch-ua-mobile: ?1 true, ?0 false. */
  ch_ua_mobile: z.boolean({ message: "must be true or false" }).nullable(),
  /** sec-ch-ua-platform, unquoted ("Windows", "macOS", "Linux", "Android", "Chrome OS"). */
  ch_ua_platform: printable(32).nullable(),
});
export type RequestSignals = z.infer<typeof ZRequestSignals>;

/** What a token keeps: the body as sent, and what Warden read from the request's headers. */
export const ZStoredSignals = ZCollectInput.extend({ request: ZRequestSignals.optional() });

export const ZCollectResult = z.object({
  /** Pass it as `signals` to POST /api/v1/screen within 10 minutes; it works once. */
  token: z.string(),
  expires_at: z.string(),
});
export type CollectResult = z.infer<typeof ZCollectResult>;

/**
 * What became of the `signals` token a screening was sent with: accepted (its signals were
 * used), expired, used (already screened once), invalid (malformed, unknown, or another
 * account's), refused (the collect was refused because the page's origin is not allowed;
 * the answer's `signals_reason` says which and where to allow it). Screening never fails
 * over signals: without them it judges what it was sent.
 */
export const SIGNALS_STATUSES = ["accepted", "expired", "used", "invalid", "refused"] as const;
export type SignalsStatus = (typeof SIGNALS_STATUSES)[number];

/** What a consumed token carries into a screening. */
export type CollectedSignals = CollectInput & {
  /** The collect request's own headers (absent from tokens collected before they were kept). */
  request?: RequestSignals;
  /** The Origin header the collect request came with (checked against allowed origins). */
  origin: string;
  /** The address Warden saw the browser at. */
  collect_ip: string;
};
