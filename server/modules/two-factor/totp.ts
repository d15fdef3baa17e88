/**
 * Time-based one-time passwords (RFC 6238): HMAC-SHA-1, 6 digits, 30-second steps, as every
 * authenticator app reads them. @oslojs/otp (Lucia's choice) computes the HOTP value; the time
 * step is ours, from the app's clock (oslojs's own TOTP helpers read Date.now(), which tests
 * and a server with an injected clock cannot steer).
 */
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP, verifyHOTP } from "@oslojs/otp";
import { TOTP_DIGITS } from "../../../shared/schemas/two-factor.ts";

export const TOTP_PERIOD_SECONDS = 30;
/** Steps either side of now that still count: a code typed as it changes, a clock a little off. */
export const TOTP_WINDOW = 1;
export const TOTP_SECRET_BYTES = 20;
export const TOTP_ISSUER = "Warden";

/** The RFC 6238 time step `at` falls in (T = floor(unix seconds / 30)). */
export function timeStep(at: Date): bigint {
  return BigInt(Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS));
}

/** The code for the step `at` falls in. */
export function totpAt(key: Uint8Array, at: Date, digits = TOTP_DIGITS): string {
  return generateHOTP(key, timeStep(at), digits);
}

/**
 * The step whose code `code` is, within TOTP_WINDOW steps of `at`, or null. Which step matters:
 * the caller accepts a step only once (a code seen by someone else cannot be replayed).
 */
export function matchingStep(
  key: Uint8Array,
  code: string,
  at: Date,
  window = TOTP_WINDOW,
): bigint | null {
  const now = timeStep(at);
  let found: bigint | null = null;
  // Every step is compared (constant time each), so the time taken says nothing of which.
  for (let step = now - BigInt(window); step <= now + BigInt(window); step++) {
    if (verifyHOTP(key, step, TOTP_DIGITS, code) && found === null) found = step;
  }
  return found;
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation). */
export function newTotpKey(): Uint8Array {
  const key = new Uint8Array(TOTP_SECRET_BYTES);
  crypto.getRandomValues(key);
  return key;
}

/** The secret as people type it into an app: base32, upper case, no padding. */
export function base32Secret(key: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(key);
}

/** The otpauth:// URI an app reads from a QR code ("Warden: merchant@example.com"). */
export function keyUri(accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(TOTP_ISSUER, accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}
