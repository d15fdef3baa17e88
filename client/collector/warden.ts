/**
 * warden.js, the browser collector: `Warden.init({ key, url })`, `Warden.watch(form)`, and
 * `await Warden.token()`, which sends what was collected to Warden's POST /api/v1/collect and
 * resolves to a single-use token (10 minutes) for the merchant's backend to pass as `signals`
 * to /api/v1/screen. Served as /sdk/warden.mjs (this module) and /sdk/warden.js (a classic
 * script defining window.Warden). Kept free of dependencies: the budget is 15 KB gzipped.
 *
 * A collect refused because the page's origin is not allowed never fails silently: the reason
 * goes to the console in one line, and token() resolves to a refusal token, so the backend's
 * screening answers `signals: "refused"` with the same reason.
 */
import { refusedToken } from "../../shared/collector-refusal.ts";
import type { CollectInput } from "../../shared/schemas/collect.ts";
import { type FormWatch, watchForm } from "./behavior.ts";
import { deviceId } from "./device.ts";

export type InitOptions = {
  /** A publishable key, wdn_pk_… (a secret key must never reach a browser). */
  key: string;
  /** Warden's base URL, e.g. https://warden.example.com. */
  url: string;
  /** A form (or a CSS selector for one) to watch, as watch() would. */
  form?: HTMLFormElement | string;
};

const TIMEOUT_MS = 5000;
let settings: { key: string; url: string } | null = null;
let watching: FormWatch | null = null;

/** Remembers the key and Warden's URL; throws on a key that is not publishable. */
export function init(options: InitOptions): void {
  if (!options || typeof options.key !== "string" || !options.key.startsWith("wdn_pk_")) {
    throw new Error(
      "Warden.init: key must be a publishable key (wdn_pk_…); never put a secret key in a page.",
    );
  }
  if (typeof options.url !== "string" || !/^https?:\/\//.test(options.url)) {
    throw new Error("Warden.init: url must be Warden's base URL, e.g. https://warden.example.com");
  }
  settings = { key: options.key, url: options.url.replace(/\/+$/, "") };
  if (options.form) watch(options.form);
}

/** Starts watching how a form is filled (replacing any form watched before). */
export function watch(form: HTMLFormElement | string): void {
  const element = typeof form === "string" ? document.querySelector(form) : form;
  if (!(element instanceof HTMLFormElement)) {
    throw new Error(`Warden.watch: no form found for ${String(form)}`);
  }
  watching?.stop();
  watching = watchForm(element);
}

/** A URL without its query string or fragment (they may carry tokens); undefined if none. */
function bare(value: string): string | undefined {
  try {
    const parsed = new URL(value);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin + parsed.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** What the collector sends; exported for tests. */
export function collect(): CollectInput {
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    device_id: deviceId(),
    ...(timezone ? { timezone } : {}),
    url: bare(location.href),
    referrer: document.referrer ? bare(document.referrer) : undefined,
    webdriver: navigator.webdriver === true,
    ...(watching ? { behavior: watching.snapshot() } : {}),
  };
}

/**
 * Sends the signals to Warden; resolves to the token (a refusal token when the page's origin
 * is not allowed), rejects when Warden cannot be reached or refuses the key.
 */
export async function token(): Promise<string> {
  if (!settings) throw new Error("Warden.token: call Warden.init({ key, url }) first");
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    // text/plain keeps this a simple request: no CORS preflight, one round trip.
    const response = await fetch(
      `${settings.url}/api/v1/collect?key=${encodeURIComponent(settings.key)}`,
      {
        method: "POST",
        headers: { "content-type": "text/plain;charset=UTF-8" },
        body: JSON.stringify(collect()),
        credentials: "omit",
        signal: abort.signal,
      },
    );
    const answer = (await response.json().catch(() => null)) as {
      token?: string;
      error?: { code?: string; message?: string };
    } | null;
    if (response.status === 403 && answer?.error?.code === "FORBIDDEN") {
      // The page's origin is not allowed (a secret key never gets this far: init refuses it).
      console.warn(`Warden: collect refused: ${answer.error.message ?? location.origin}`);
      return refusedToken(location.origin);
    }
    if (!response.ok || typeof answer?.token !== "string") {
      throw new Error(
        `Warden.token: collect answered ${response.status}${answer?.error?.message ? `: ${answer.error.message}` : ""}`,
      );
    }
    return answer.token;
  } catch (error) {
    // Unreachable, refused by CORS, or timed out: always an Error, so callers can go on without.
    if (error instanceof Error && error.message.startsWith("Warden.token")) throw error;
    throw new Error(`Warden.token: Warden could not be reached (${String(error)})`);
  } finally {
    clearTimeout(timer);
  }
}

const Warden = { init, watch, token };
export default Warden;
