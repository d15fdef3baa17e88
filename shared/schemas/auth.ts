import { z } from "zod";
import type { Role } from "../team/roles.ts";
import { storableString } from "./storable.ts";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Email is required.")
  .max(254, "Email is too long.")
  .pipe(z.email("Please enter a valid email."));

export const ZPassword = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

export const ZCredentials = z.strictObject({
  email: ZEmail,
  // Login accepts any non-empty password so a wrong one gets the one generic message.
  password: z
    .string()
    .min(1, "Password is required.")
    .max(PASSWORD_MAX * 4),
});

export const ACCOUNT_NAME_MAX = 100;

/** What people call an account (empty: the app's name, then the first owner's email, stand in). */
export const ZAccountName = storableString()
  .trim()
  .max(ACCOUNT_NAME_MAX, `Account name must be at most ${ACCOUNT_NAME_MAX} characters.`);

/** An account of one's own, asked for by a person who joined through an invitation (or anyone). */
export const ZCreateAccount = z.strictObject({
  name: ZAccountName.pipe(z.string().min(1, "Account name must not be empty.")),
});
export const ZAccountCreated = z.object({ account_id: z.string() });

export const ZSignup = z.strictObject({
  email: ZEmail,
  password: ZPassword,
  /** Optional: the name of the account the signup creates. */
  account_name: ZAccountName.optional(),
});
export type Signup = z.infer<typeof ZSignup>;

export const ZForgotPassword = z.strictObject({ email: ZEmail });

export const ZEmailLink = z.strictObject({
  tokenHash: z.string().min(1).max(200),
  email: ZEmail,
});

export const ZResetPassword = ZEmailLink.extend({ password: ZPassword });

export const ZChangePassword = z.strictObject({
  currentPassword: z
    .string()
    .min(1, "Current password is required.")
    .max(PASSWORD_MAX * 4),
  password: ZPassword,
});

export type Credentials = z.infer<typeof ZCredentials>;
/**
 * The signed-in person as the console knows them: `accountId` is the account the session acts
 * in (one of their memberships, switched in the header), `role` their role there.
 */
export type SessionUser = {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  /** Whether the person signs in with a second factor (TOTP). */
  twoFactor: boolean;
};
