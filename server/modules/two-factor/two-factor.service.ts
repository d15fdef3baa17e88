/**
 * Two-factor sign-in: enrolling an authenticator app (TOTP), recovery codes, turning it off,
 * and the sign-in's second step. A code is good once (the last accepted time step is kept; a
 * recovery code is spent), wrong codes are counted per person (5 per 15 minutes, then 429),
 * and the secret is sealed at rest, bound to its owner and column.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { renderSVG } from "uqr";
import { MESSAGES } from "../../../shared/messages.ts";
import type {
  SecondFactorMethod,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from "../../../shared/schemas/two-factor.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Encryptor } from "../../lib/encryption.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { SessionService, ValidSession } from "../auth/session.service.ts";
import type { Limit, ThrottleService } from "../throttle/throttle.service.ts";
import { newRecoveryCodes, readCode, recoveryCodeHash } from "./second-factor-code.ts";
import { base32Secret, keyUri, matchingStep, newTotpKey } from "./totp.ts";
import type { TwoFactorRepository } from "./two-factor.repository.ts";
import { type TwoFactorChange, twoFactorMail } from "./two-factor-mails.ts";

const MINUTE = 60_000;

export const TWO_FACTOR_LIMITS = {
  // Wrong codes (TOTP or recovery), at sign-in and when changing the second factor alike.
  codeFailuresPerUser: {
    limit: 5,
    windowMs: 15 * MINUTE,
    message: MESSAGES.tooManyTwoFactorFailures,
  },
  // Guesses at the password from a signed-in session (starting enrolment, turning it off).
  passwordPerUser: { limit: 5, windowMs: 15 * MINUTE, message: MESSAGES.tooManyRequests },
} satisfies Record<string, Limit>;

/** The signed-in person, as the session knows them. */
export type Member = { id: string; email: string };

type Deps = {
  repo: TwoFactorRepository;
  sessions: Pick<SessionService, "completeTwoFactor">;
  throttle: ThrottleService;
  audit: Pick<AuditService, "record">;
  encryptor: Encryptor;
  /** The auth module's password check (argon2id), for the password asked again here. */
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
  now: () => Date;
  /** The person is told by email of each change to their second factor (the outbox). */
  notices?: { mailer: Mailer; publicUrl: string };
};

const secretSeal = (userId: string) => `user:${userId}:totp_secret`;
const pendingSeal = (userId: string) => `user:${userId}:totp_pending_secret`;

/** A wrong code or password, as a 400 on its field (the form shows it under the field). */
function wrong(field: "code" | "password", message: string): AppError {
  return new AppError("BAD_REQUEST", message, { issues: [{ path: field, message }] });
}

export function createTwoFactorService({
  repo,
  sessions,
  throttle,
  audit,
  encryptor,
  verifyPassword,
  now,
  notices,
}: Deps) {
  async function tell(member: Member, change: TwoFactorChange) {
    if (notices) await notices.mailer.send(twoFactorMail(member.email, change, notices.publicUrl));
  }

  async function userOf(member: Member) {
    const user = await repo.findUser(member.id);
    if (!user) throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
    return user;
  }

  function keyOf(sealed: string, seal: string): Uint8Array {
    return decodeBase32IgnorePadding(encryptor.open(sealed, seal));
  }

  /** One event in each account the person belongs to: their sign-in concerns them all. */
  async function recordEverywhere(member: Member, ip: string, action: string, after?: unknown) {
    for (const accountId of await repo.accountIds(member.id)) {
      await audit.record({
        accountId,
        actor: { kind: "member", id: member.id, name: member.email },
        ip,
        action,
        after,
      });
    }
  }

  async function checkPassword(user: { id: string; passwordHash: string }, password: string) {
    const key = `2fa-password:${user.id}`;
    await throttle.attempt(key, TWO_FACTOR_LIMITS.passwordPerUser);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw wrong("password", MESSAGES.currentPasswordWrong);
    }
    await throttle.clear(key);
  }

  /**
   * Runs one code check under the wrong-code limit: counted before it runs, so a burst of
   * guesses cannot outpace the count, and started over after a good code.
   */
  async function underCodeLimit<T>(userId: string, check: () => Promise<T>): Promise<T> {
    const key = `2fa-code:${userId}`;
    await throttle.attempt(key, TWO_FACTOR_LIMITS.codeFailuresPerUser);
    const result = await check();
    await throttle.clear(key);
    return result;
  }

  /**
   * Checks a TOTP code (one step of the window, never one accepted before) or spends a
   * recovery code; throws 400 for a wrong or used code, 429 past the limit of wrong ones.
   */
  function proveSecondFactor(
    user: { id: string; totpSecret: string | null },
    typed: string,
  ): Promise<SecondFactorMethod> {
    return underCodeLimit(user.id, async () => {
      const code = readCode(typed);
      if (!code || !user.totpSecret) throw wrong("code", MESSAGES.twoFactorCodeWrong);
      if (code.kind === "recovery_code") {
        if (!(await repo.spendRecoveryCode(user.id, recoveryCodeHash(code.code), now()))) {
          throw wrong("code", MESSAGES.twoFactorCodeWrong);
        }
        return code.kind;
      }
      const step = matchingStep(keyOf(user.totpSecret, secretSeal(user.id)), code.code, now());
      if (step === null) throw wrong("code", MESSAGES.twoFactorCodeWrong);
      if (!(await repo.acceptStep(user.id, step))) throw wrong("code", MESSAGES.twoFactorCodeUsed);
      return code.kind;
    });
  }

  function newCodes(): { codes: string[]; hashes: string[] } {
    const codes = newRecoveryCodes();
    return { codes, hashes: codes.map(recoveryCodeHash) };
  }

  return {
    async status(member: Member): Promise<TwoFactorStatus> {
      const user = await userOf(member);
      return {
        enabled: user.totpEnabledAt !== null,
        enabled_at: user.totpEnabledAt?.toISOString() ?? null,
        recovery_codes_left: user.totpEnabledAt ? await repo.unusedRecoveryCodes(user.id) : 0,
        required_by_account: await repo.requiredByAnAccount(user.id),
      };
    },

    /**
     * Starts enrolment: a new secret, kept aside (sealed) until a code from the app confirms
     * it. Starting again replaces it, so only the newest QR code can be confirmed.
     */
    async begin(member: Member, input: { password: string }): Promise<TwoFactorEnrolment> {
      const user = await userOf(member);
      if (user.totpEnabledAt) throw new AppError("CONFLICT", MESSAGES.twoFactorAlreadyOn);
      await checkPassword(user, input.password);
      const key = newTotpKey();
      const secret = base32Secret(key);
      await repo.setPendingSecret(user.id, encryptor.seal(secret, pendingSeal(user.id)));
      const uri = keyUri(user.email, key);
      return { secret, uri, qr_svg: renderSVG(uri, { border: 4, ecc: "M" }) };
    },

    /** Confirms enrolment with a code from the app; answers the recovery codes, shown once. */
    async confirm(member: Member, typed: string, ip: string) {
      const user = await userOf(member);
      if (user.totpEnabledAt) throw new AppError("CONFLICT", MESSAGES.twoFactorAlreadyOn);
      const pending = user.totpPendingSecret;
      if (!pending) throw wrong("code", MESSAGES.twoFactorNotStarted);
      const secret = encryptor.open(pending, pendingSeal(user.id));
      const step = await underCodeLimit(user.id, async () => {
        const code = readCode(typed);
        const key = decodeBase32IgnorePadding(secret);
        const found = code?.kind === "totp" ? matchingStep(key, code.code, now()) : null;
        if (found === null) throw wrong("code", MESSAGES.twoFactorCodeWrong);
        return found;
      });
      const { codes, hashes } = newCodes();
      const enabled = await repo.enable(
        user.id,
        {
          pendingSealed: pending,
          secretSealed: encryptor.seal(secret, secretSeal(user.id)),
          step,
          at: now(),
        },
        hashes,
      );
      if (!enabled) throw new AppError("CONFLICT", MESSAGES.twoFactorNotStarted);
      await recordEverywhere(member, ip, "two_factor.enabled");
      await tell(member, "enabled");
      return { recovery_codes: codes };
    },

    /** Turns the second factor off: the password and a current code (or a recovery code). */
    async disable(member: Member, input: { password: string; code: string }, ip: string) {
      const user = await userOf(member);
      if (!user.totpEnabledAt) throw new AppError("BAD_REQUEST", MESSAGES.twoFactorNotOn);
      await checkPassword(user, input.password);
      const method = await proveSecondFactor(user, input.code);
      await repo.disable(user.id);
      await recordEverywhere(member, ip, "two_factor.disabled", { method });
      await tell(member, "disabled");
      return { ok: true as const };
    },

    /** New recovery codes in place of the old ones (all of them, used or not). */
    async regenerateCodes(member: Member, typed: string, ip: string) {
      const user = await userOf(member);
      if (!user.totpEnabledAt) throw new AppError("BAD_REQUEST", MESSAGES.twoFactorNotOn);
      const method = await proveSecondFactor(user, typed);
      const { codes, hashes } = newCodes();
      await repo.replaceRecoveryCodes(user.id, hashes);
      await recordEverywhere(member, ip, "two_factor.recovery_codes_regenerated", { method });
      await tell(member, "codes");
      return { recovery_codes: codes };
    },

    /**
     * The sign-in's second step: a good code makes the session whole. Signed in with a
     * recovery code, the answer says how many are left, so the person knows when to make more.
     */
    async verifySignIn(session: ValidSession, typed: string, ip: string) {
      if (!session.pendingTwoFactor) {
        throw new AppError("BAD_REQUEST", MESSAGES.twoFactorNotPending);
      }
      const member = session.user;
      const user = await userOf(member);
      const event = {
        accountId: member.accountId,
        actor: { kind: "member" as const, id: member.id, name: member.email },
        ip,
      };
      let method: SecondFactorMethod;
      try {
        method = await proveSecondFactor(user, typed);
      } catch (error) {
        const refused = error instanceof AppError && error.code === "BAD_REQUEST";
        if (refused) await audit.record({ ...event, action: "auth.two_factor_failed" });
        throw error;
      }
      await sessions.completeTwoFactor(session.id);
      await audit.record({ ...event, action: "auth.sign_in", after: { method } });
      if (method === "totp") return { ok: true as const, method };
      return {
        ok: true as const,
        method,
        recovery_codes_left: await repo.unusedRecoveryCodes(user.id),
      };
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
