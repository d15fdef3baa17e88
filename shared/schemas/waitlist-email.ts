/**
 * The waitlist email rule (spec §5) as plain code. It lives apart from the zod schema in
 * waitlist.ts because importing zod at all pulls its ~24 kB (gzipped) into the landing page;
 * the schema wraps this same function, so browser and server cannot disagree.
 */
import { MESSAGES } from "../messages.ts";

/** Non-space text, an at-sign, non-space text, a dot, non-space text. */
export const WAITLIST_EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** No deliverable address is longer (RFC 5321 path limit). */
export const WAITLIST_EMAIL_MAX = 254;

/** Emails are compared and stored trimmed and lowercased. */
export function normalizeWaitlistEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export type WaitlistEmailCheck = { ok: true; email: string } | { ok: false; message: string };

/** Normalizes, then checks one address; the message is the spec's exact wording. */
export function checkWaitlistEmail(raw: string): WaitlistEmailCheck {
  const email = normalizeWaitlistEmail(raw);
  if (email.length > WAITLIST_EMAIL_MAX || !WAITLIST_EMAIL_PATTERN.test(email)) {
    return { ok: false, message: MESSAGES.waitlistInvalidEmail };
  }
  return { ok: true, email };
}
