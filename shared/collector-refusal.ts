/**
 * A refused collect's token. When Warden refuses a collect because the page's origin is not
 * allowed, warden.js resolves `Warden.token()` to this token (it names the page's origin)
 * instead of failing, so the merchant's backend passes it on as `signals` like any token and
 * the screening answers `signals: "refused"` with the reason Warden recorded for that origin.
 * It carries no signals and proves nothing: a token naming an origin Warden never refused
 * for the account is `invalid`. No dependencies: warden.js imports it.
 */
export const REFUSED_TOKEN_PREFIX = "wdn_sig_refused_";

/** The refusal token for a page on `origin` (an ASCII origin, as browsers serialize it). */
export function refusedToken(origin: string): string {
  const encoded = btoa(origin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${REFUSED_TOKEN_PREFIX}${encoded}`;
}

/** The origin a refusal token names, or null when `token` is not one. */
export function refusedOriginOf(token: string): string | null {
  if (!token.startsWith(REFUSED_TOKEN_PREFIX)) return null;
  const encoded = token.slice(REFUSED_TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]{1,3000}$/.test(encoded)) return null;
  try {
    return atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
}
