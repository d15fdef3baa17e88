/**
 * Two-factor sign-in (TOTP, RFC 6238): what the console and scripts send and get back. A
 * "code" is either the 6 digits an authenticator app shows or a one-time recovery code
 * (xxxxx-xxxxx); spaces and dashes are ignored, so "123 456" and "ABCDE-FGHIJ" both read.
 */
import { z } from "zod";
import { PASSWORD_MAX } from "./auth.ts";

export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit code or a recovery code, as typed. */
export const ZSecondFactorCode = z
  .string()
  .trim()
  .min(1, "Enter the code.")
  .max(40, "That code is too long.")
  .regex(/^[0-9A-Za-z\s-]+$/, "A code has only digits, letters and dashes.");

/** The 6 digits an authenticator app shows (spaces allowed: "123 456"). */
export const ZTotpCode = z
  .string()
  .trim()
  .regex(/^\d{3}\s?\d{3}$/, `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`);

const ZCurrentPassword = z
  .string()
  .min(1, "Enter your password.")
  .max(PASSWORD_MAX * 4);

/** The sign-in's second step. */
export const ZVerifyTwoFactor = z.strictObject({ code: ZSecondFactorCode });
/** Starting enrolment proves the password again: a stolen session alone cannot lock the owner out. */
export const ZTwoFactorBegin = z.strictObject({ password: ZCurrentPassword });
/** Enrolment is confirmed with a code from the app, proving it holds the secret. */
export const ZTwoFactorConfirm = z.strictObject({ code: ZTotpCode });
export const ZTwoFactorDisable = z.strictObject({
  password: ZCurrentPassword,
  code: ZSecondFactorCode,
});
export const ZTwoFactorRegenerate = z.strictObject({ code: ZSecondFactorCode });

export const ZTwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** Some account the person belongs to requires a second factor of every member. */
  required_by_account: z.boolean(),
});

export const ZTwoFactorEnrolment = z.object({
  /** The secret in base32, for typing into an app by hand. */
  secret: z.string(),
  /** The otpauth:// key URI an app reads from the QR code. */
  uri: z.string(),
  /** The same URI as a QR code (an SVG document). */
  qr_svg: z.string(),
});

/** Shown once: each code signs in once in place of the app. */
export const ZRecoveryCodes = z.object({ recovery_codes: z.string().array() });

export const ZTwoFactorVerified = z.object({
  ok: z.literal(true),
  method: z.enum(["totp", "recovery_code"]),
  /** Signed in with a recovery code: how many unused ones are left. */
  recovery_codes_left: z.number().int().optional(),
});

/** At or below this many recovery codes left, the console urges making new ones. */
export const FEW_RECOVERY_CODES = 3;

export type TwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;
export type TwoFactorEnrolment = z.infer<typeof ZTwoFactorEnrolment>;
export type SecondFactorMethod = z.infer<typeof ZTwoFactorVerified>["method"];
