/**
 * How Warden signs a decision webhook, shared by the sender (the server) and the verify
 * helper in `warden/client` (so it uses Web Crypto, present in Node 18+ and browsers, and
 * imports nothing). The header is
 *
 *   Warden-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *
 * keyed with the endpoint's signing secret (whsec_…). A receiver recomputes the HMAC over the
 * raw body it got, compares in constant time, and refuses a timestamp older than its
 * tolerance (5 minutes by default), so a captured delivery cannot be replayed later.
 */

export const SIGNATURE_HEADER = "warden-signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

export async function signatureOf(
  secret: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`)),
  );
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The header value for `body` signed at `timestamp` (Unix seconds). */
export async function signatureHeader(
  secret: string,
  timestamp: number,
  body: string,
): Promise<string> {
  return `t=${timestamp},v1=${await signatureOf(secret, timestamp, body)}`;
}

/** Equal strings compared without stopping at the first difference. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * Checks a Warden-Signature header against the raw body (exactly as received) and the
 * endpoint's signing secret.
 */
export async function verifyWebhook(
  body: string,
  header: string | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<VerifyResult> {
  if (!header) return { ok: false, reason: "no Warden-Signature header" };
  let timestamp = Number.NaN;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [key = "", value = ""] = part.trim().split("=", 2);
    if (key === "t") timestamp = Number(value);
    if (key === "v1") candidates.push(value.toLowerCase());
  }
  if (!Number.isInteger(timestamp)) return { ok: false, reason: "no timestamp in the header" };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: "timestamp outside the tolerance" };
  }
  const expected = await signatureOf(secret, timestamp, body);
  return candidates.some((candidate) => sameText(candidate, expected))
    ? { ok: true, timestamp }
    : { ok: false, reason: "signature does not match" };
}
