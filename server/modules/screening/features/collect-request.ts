/**
 * What a collect request's own headers say about the browser that sent it: its User-Agent,
 * whether it sent Accept-Language (and its first tag), and the three client hints Chromium
 * sends by default (sec-ch-ua, sec-ch-ua-mobile, sec-ch-ua-platform). A stealth tool sets
 * what the page's JavaScript sees, and often forgets what the browser puts on the wire;
 * rule_scraping compares them (server/engine/request-consistency.ts). Pure; every value is
 * cut or dropped to fit ZRequestSignals, whatever a client sent.
 */
import { REQUEST_SIGNAL_LIMITS, type RequestSignals } from "../../../../shared/schemas/collect.ts";

/** Headers as Node gives them: a repeated header may come as an array. */
export type Headers = Record<string, string | string[] | undefined>;

/** Longer than any real header of these; a longer one is read only this far. */
const MAX_HEADER = 1024;
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,4}$/;
const PLATFORM = /^[\x20-\x7e]{1,32}$/;
/** One sec-ch-ua member: "Brand";v="123" (a structured-field string and its v parameter). */
const BRAND = /"((?:[^"\\]|\\.)*)"\s*(?:;\s*v\s*=\s*"((?:[^"\\]|\\.)*)")?/g;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.slice(0, MAX_HEADER);
}

/** Printable ASCII only, at most `max` characters (anything else becomes "?"). */
function printable(value: string, max: number): string {
  return value.slice(0, max).replace(/[^\x20-\x7e]/g, "?");
}

function unbackslash(value: string): string {
  return value.replace(/\\(.)/g, "$1");
}

/** sec-ch-ua's brands; an unreadable header is an empty list (it was sent all the same). */
export function brandsOf(value: string): { brand: string; version: string }[] {
  const brands = [];
  for (const match of value.matchAll(BRAND)) {
    if (brands.length === REQUEST_SIGNAL_LIMITS.brands) break;
    brands.push({
      brand: printable(unbackslash(match[1] ?? ""), REQUEST_SIGNAL_LIMITS.brand),
      version: printable(unbackslash(match[2] ?? ""), REQUEST_SIGNAL_LIMITS.version),
    });
  }
  return brands;
}

/** The first tag of an Accept-Language ("de-DE,de;q=0.9" → "de-DE"); null for "*" or junk. */
export function firstLanguage(value: string): string | null {
  const tag = (value.split(",")[0] ?? "").split(";")[0]?.trim() ?? "";
  return LANGUAGE_TAG.test(tag) ? tag : null;
}

function mobileOf(value: string | undefined): boolean | null {
  if (value?.trim() === "?1") return true;
  if (value?.trim() === "?0") return false;
  return null;
}

function platformOf(value: string | undefined): string | null {
  const unquoted = value?.trim().replace(/^"(.*)"$/, "$1");
  return unquoted && PLATFORM.test(unquoted) ? unquoted : null;
}

/**
 * What the headers say. `secure`: the request came over https (the socket, or a trusted
 * proxy's X-Forwarded-Proto) from an https page, where Chromium always sends its hints.
 */
export function collectRequestOf(headers: Headers, secure: boolean): RequestSignals {
  const userAgent = header(headers, "user-agent");
  const acceptLanguage = header(headers, "accept-language");
  const chUa = header(headers, "sec-ch-ua");
  return {
    secure,
    user_agent: userAgent ? printable(userAgent, REQUEST_SIGNAL_LIMITS.userAgent) : null,
    accept_language: Boolean(acceptLanguage?.trim()),
    language: acceptLanguage ? firstLanguage(acceptLanguage) : null,
    ch_ua: chUa === undefined ? null : brandsOf(chUa),
    ch_ua_mobile: mobileOf(header(headers, "sec-ch-ua-mobile")),
    ch_ua_platform: platformOf(header(headers, "sec-ch-ua-platform")),
  };
}
