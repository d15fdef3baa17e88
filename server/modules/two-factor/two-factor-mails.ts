/**
 * The email a person gets when their own second factor changes: turned on, turned off, or
 * new recovery codes made. Whoever holds the password and a code can do these, so the mail
 * says what to do if it was not them. Pure.
 */
import type { Mail } from "../../lib/mailer.ts";

export type TwoFactorChange = "enabled" | "disabled" | "codes";

const WHAT: Record<TwoFactorChange, { subject: string; line: string }> = {
  enabled: {
    subject: "Two-factor sign-in is on for your Warden login",
    line: "Two-factor sign-in was turned on for your Warden login: signing in now asks for a code from your authenticator app, or a recovery code.",
  },
  disabled: {
    subject: "Two-factor sign-in is off for your Warden login",
    line: "Two-factor sign-in was turned off for your Warden login: signing in now asks for your password only. An account that requires two-factor sign-in will ask you to set it up again.",
  },
  codes: {
    subject: "New recovery codes for your Warden login",
    line: "New recovery codes were made for your Warden login; the old ones no longer work.",
  },
};

export function twoFactorMail(to: string, change: TwoFactorChange, publicUrl: string): Mail {
  const { subject, line } = WHAT[change];
  return {
    to,
    subject,
    text: `${line}\n\nIf it was not you, someone knows your password and has your second factor: reset your password now at ${publicUrl}/forgot-password, then check Settings → Two-factor sign-in.\n`,
  };
}
