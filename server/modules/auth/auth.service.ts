/** Account use cases: signup and confirmation, login, logout, password reset and change. */
import { MESSAGES } from "../../../shared/messages.ts";
import type { Credentials, Signup } from "../../../shared/schemas/auth.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { decoyHash, hashPassword, verifyPassword } from "../../lib/password.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { Limit, ThrottleService } from "../throttle/throttle.service.ts";
import type { AuthRepository } from "./auth.repository.ts";
import type { SessionService } from "./session.service.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RESET_TOKEN_MS = HOUR;
const CONFIRM_TOKEN_MS = 24 * HOUR;

export const LIMITS = {
  loginFailuresPerEmail: {
    limit: 5,
    windowMs: 15 * MINUTE,
    message: MESSAGES.tooManyLoginFailures,
  },
  // Guesses at the current password from a signed-in session.
  changePasswordPerUser: { limit: 5, windowMs: 15 * MINUTE, message: MESSAGES.tooManyRequests },
  loginPerIp: { limit: 30, windowMs: 15 * MINUTE, message: MESSAGES.tooManyRequests },
  signupPerIp: { limit: 10, windowMs: HOUR, message: MESSAGES.tooManyRequests },
  forgotPerIp: { limit: 10, windowMs: 15 * MINUTE, message: MESSAGES.tooManyRequests },
  // Past this, reset emails to one address stop quietly: the answer stays the same.
  forgotPerEmail: { limit: 3, windowMs: HOUR, message: MESSAGES.tooManyRequests },
  // Accounts a person starts from the console: enough for a second app, not a farm of them.
  accountsPerUser: { limit: 5, windowMs: 24 * HOUR, message: MESSAGES.tooManyRequests },
} satisfies Record<string, Limit>;

type Deps = {
  repo: AuthRepository;
  /** Sign-ins and failed sign-ins go to the audit log of each account the person is in. */
  audit?: Pick<AuditService, "record">;
  sessions: SessionService;
  throttle: ThrottleService;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
};

export function createAuthService({
  repo,
  sessions,
  throttle,
  mailer,
  audit,
  publicUrl,
  now,
}: Deps) {
  /** One event in each of the person's accounts (a failed sign-in concerns them all). */
  async function recordSignIn(
    user: { id: string; email: string },
    accountIds: string[],
    action: string,
    ip: string | null,
  ): Promise<void> {
    if (!audit) return;
    for (const accountId of accountIds) {
      await audit.record({
        accountId,
        actor: { kind: "member", id: user.id, name: user.email },
        ip,
        action,
      });
    }
  }

  function link(path: string, token: string, type: string, email: string): string {
    const query = new URLSearchParams({ tokenHash: token, type, email });
    return `${publicUrl}${path}?${query}`;
  }

  async function issueToken(
    purpose: "confirm" | "recovery",
    user: { id: string; email: string },
  ): Promise<string> {
    const token = randomToken(20);
    const ttl = purpose === "recovery" ? RESET_TOKEN_MS : CONFIRM_TOKEN_MS;
    await repo.createEmailToken({
      tokenHash: sha256Hex(token),
      purpose,
      userId: user.id,
      email: user.email,
      expiresAt: new Date(now().getTime() + ttl),
    });
    return token;
  }

  async function sendConfirmation(user: { id: string; email: string }): Promise<void> {
    const token = await issueToken("confirm", user);
    await mailer.send({
      to: user.email,
      subject: "Confirm your Warden account",
      text: `Welcome to Warden.\n\nConfirm your email address to activate your account:\n${link("/confirm-email", token, "signup", user.email)}\n\nThe link is valid for 24 hours. If you did not sign up, ignore this message.\n`,
    });
  }

  return {
    async signup(input: Signup, ip: string): Promise<{ message: string }> {
      await throttle.consume(`signup-ip:${ip}`, LIMITS.signupPerIp);
      const user = await repo.createAccountWithUser(
        input.email,
        await hashPassword(input.password),
        input.account_name ?? "",
      );
      if (user) {
        await sendConfirmation(user);
        return { message: MESSAGES.signupSuccess };
      }
      // The email is taken: answer the same, so signup does not reveal who has an account.
      const existing = await repo.findUserByEmail(input.email);
      if (existing && !existing.emailConfirmedAt) {
        // Unconfirmed: the newest signup's password wins and older links die (pre-hijacking).
        const passwordHash = await hashPassword(input.password);
        if (await repo.replaceUnconfirmedSignup(existing.id, passwordHash, now())) {
          await sendConfirmation(existing);
          return { message: MESSAGES.signupSuccess };
        }
      }
      if (existing) {
        await mailer.send({
          to: existing.email,
          subject: "You already have a Warden account",
          text: `Someone tried to sign up with this email. You already have an account: log in at ${publicUrl}/login, or reset your password at ${publicUrl}/forgot-password.\n`,
        });
      }
      return { message: MESSAGES.signupSuccess };
    },

    async confirmEmail(input: { tokenHash: string; email: string }): Promise<{ message: string }> {
      const hashed = sha256Hex(input.tokenHash);
      const token = await repo.findUsableEmailToken(hashed, "confirm", input.email, now());
      if (!token || !(await repo.consumeEmailToken(hashed, now()))) {
        throw new AppError("BAD_REQUEST", MESSAGES.confirmLinkInvalid);
      }
      await repo.markEmailConfirmed(token.userId, now());
      return { message: MESSAGES.emailConfirmed };
    },

    async login(input: Credentials, ip: string) {
      await throttle.consume(`login-ip:${ip}`, LIMITS.loginPerIp);
      // Counted before argon2 runs, so a batch or a burst of guesses cannot outpace the count.
      const attemptsKey = `login-fail:${input.email}`;
      await throttle.attempt(attemptsKey, LIMITS.loginFailuresPerEmail);
      const user = await repo.findUserByEmail(input.email);
      const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash()), input.password);
      if (user && !ok) {
        const accounts = (await repo.memberships(user.id)).map((m) => m.accountId);
        await recordSignIn(user, accounts, "auth.sign_in_failed", ip);
      }
      if (!user || !ok) throw new AppError("UNAUTHORIZED", MESSAGES.invalidCredentials);
      await throttle.clear(attemptsKey);
      if (!user.emailConfirmedAt) throw new AppError("FORBIDDEN", MESSAGES.emailNotConfirmed);
      // The account they last acted in while they are still in it, else the one they signed
      // up with (or joined first), else their oldest one.
      const memberships = await repo.memberships(user.id);
      const member =
        memberships.find((m) => m.accountId === user.lastAccountId) ??
        memberships.find((m) => m.accountId === user.accountId) ??
        memberships[0] ??
        null;
      if (!member) throw new AppError("FORBIDDEN", MESSAGES.noAccount);
      if (member.accountId !== user.lastAccountId) {
        await repo.setLastAccount(user.id, member.accountId);
      }
      // With a second factor, the session can do nothing but take the code until it is given.
      const twoFactor = user.totpEnabledAt !== null;
      const session = await sessions.create(user.id, member.accountId, twoFactor);
      await recordSignIn(
        user,
        [member.accountId],
        twoFactor ? "auth.password_accepted" : "auth.sign_in",
        ip,
      );
      return {
        ...session,
        twoFactorRequired: twoFactor,
        user: {
          id: user.id,
          accountId: member.accountId,
          email: user.email,
          role: member.role,
          twoFactor,
        },
      };
    },

    logout(sessionId: string): Promise<void> {
      return sessions.invalidate(sessionId);
    },

    async requestPasswordReset(email: string, ip: string): Promise<{ message: string }> {
      await throttle.consume(`forgot-ip:${ip}`, LIMITS.forgotPerIp);
      // Counted for every address, known or not, so both take the same steps.
      const quiet = await throttle
        .consume(`forgot-email:${email}`, LIMITS.forgotPerEmail)
        .then(() => false)
        .catch((error) => (error instanceof AppError ? true : Promise.reject(error)));
      const user = await repo.findUserByEmail(email);
      if (user) {
        if (!quiet) {
          const token = await issueToken("recovery", user);
          await mailer.send({
            to: user.email,
            subject: "Reset your Warden password",
            text: `Someone asked to reset the password of your Warden account.\n\nChoose a new password here (the link works once, for one hour):\n${link("/reset-password", token, "recovery", user.email)}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
          });
        }
      }
      return { message: MESSAGES.resetEmailSent };
    },

    /** Whether a reset link can still be used; spends nothing. */
    async checkResetLink(input: { tokenHash: string; email: string }): Promise<boolean> {
      const token = await repo.findUsableEmailToken(
        sha256Hex(input.tokenHash),
        "recovery",
        input.email,
        now(),
      );
      return token !== null;
    },

    /** Spends the reset token, sets the password and ends every session of the user. */
    async resetPassword(input: { tokenHash: string; email: string; password: string }) {
      const hashed = sha256Hex(input.tokenHash);
      const token = await repo.findUsableEmailToken(hashed, "recovery", input.email, now());
      if (!token) throw new AppError("BAD_REQUEST", MESSAGES.resetTokenFailed);
      const passwordHash = await hashPassword(input.password);
      if (!(await repo.spendTokenAndResetPassword(hashed, token.userId, passwordHash, now()))) {
        throw new AppError("BAD_REQUEST", MESSAGES.resetTokenFailed);
      }
      const accounts = (await repo.memberships(token.userId)).map((m) => m.accountId);
      await recordSignIn(
        { id: token.userId, email: token.email },
        accounts,
        "auth.password_reset",
        null,
      );
      return { message: MESSAGES.passwordUpdated };
    },

    /** Deletes expired sessions and tokens, so those tables do not grow without end. */
    purgeExpired() {
      return repo.deleteExpired(now());
    },

    /**
     * An account of the person's own (an invitee has none until they ask): they own it, and
     * this session and their next login act in it. Written in the new account's audit log.
     */
    async createAccount(
      session: { id: string; userId: string; email: string },
      name: string,
      ip: string | null,
    ): Promise<{ account_id: string }> {
      await throttle.consume(`create-account:${session.userId}`, LIMITS.accountsPerUser);
      const accountId = await repo.createOwnedAccount(session.userId, name);
      await repo.setSessionAccount(session.id, accountId);
      await repo.setLastAccount(session.userId, accountId);
      await audit?.record({
        accountId,
        actor: { kind: "member", id: session.userId, name: session.email },
        ip,
        action: "auth.createAccount",
        target: accountId,
        targetLabel: name,
      });
      return { account_id: accountId };
    },

    /**
     * Sets a new password once the current one is proven (a stolen session alone cannot lock
     * the owner out), ends the user's other sessions and tells the owner by email.
     */
    async changePassword(
      userId: string,
      currentSessionId: string,
      input: { currentPassword: string; password: string },
    ) {
      const attemptsKey = `change-password:${userId}`;
      await throttle.attempt(attemptsKey, LIMITS.changePasswordPerUser);
      const user = await repo.findUserById(userId);
      if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        const message = MESSAGES.currentPasswordWrong;
        throw new AppError("BAD_REQUEST", message, {
          issues: [{ path: "currentPassword", message }],
        });
      }
      await throttle.clear(attemptsKey);
      await repo.setPasswordHash(userId, await hashPassword(input.password));
      await repo.deleteUserSessions(userId, currentSessionId);
      await mailer.send({
        to: user.email,
        subject: "Your Warden password was changed",
        text: `The password of your Warden account was just changed, and every other session was signed out.\n\nIf it was not you, reset your password now at ${publicUrl}/forgot-password and check your account.\n`,
      });
      return { message: MESSAGES.passwordUpdated };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
