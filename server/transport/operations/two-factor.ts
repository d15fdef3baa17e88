/** A member's own second factor: enrol a TOTP app, recovery codes, turn it off. */
import { z } from "zod";
import {
  ZRecoveryCodes,
  ZTwoFactorBegin,
  ZTwoFactorConfirm,
  ZTwoFactorDisable,
  ZTwoFactorEnrolment,
  ZTwoFactorRegenerate,
  ZTwoFactorStatus,
} from "../../../shared/schemas/two-factor.ts";
import { op } from "../operation.ts";

const CODES_EXAMPLE = { recovery_codes: ["k7mq2-xv4ta", "…"] };

export const twoFactor = {
  status: op({
    need: "self",
    kind: "query",
    output: ZTwoFactorStatus,
    handler: ({ services, session }) => services.twoFactor.status(session.user),
    rest: {
      method: "GET",
      path: "/two-factor",
      tag: "two-factor",
      summary: "Whether this person signs in with a second factor, and recovery codes left",
    },
  }),
  /** A new secret to add to an authenticator app (base32, otpauth:// URI and QR code). */
  begin: op({
    need: "self",
    kind: "mutation",
    input: ZTwoFactorBegin,
    output: ZTwoFactorEnrolment,
    handler: ({ services, session }, input) => services.twoFactor.begin(session.user, input),
    rest: {
      method: "POST",
      path: "/two-factor/begin",
      tag: "two-factor",
      summary:
        "Start enrolment (password required): a new secret for an authenticator app, as base32, an otpauth:// URI and a QR code",
      errors: [409, 429],
    },
  }),
  /** Turns it on with a code from the app; answers the recovery codes, shown this once. */
  confirm: op({
    need: "self",
    kind: "mutation",
    input: ZTwoFactorConfirm,
    output: ZRecoveryCodes,
    handler: ({ services, session, ip }, input) =>
      services.twoFactor.confirm(session.user, input.code, ip),
    rest: {
      method: "POST",
      path: "/two-factor/confirm",
      tag: "two-factor",
      summary:
        "Turn two-factor sign-in on with a code from the app; the answer holds the 10 recovery codes, shown this once",
      errors: [409, 429],
      examples: { body: { code: "123456" }, response: CODES_EXAMPLE },
    },
  }),
  disable: op({
    need: "self",
    kind: "mutation",
    input: ZTwoFactorDisable,
    output: z.object({ ok: z.literal(true) }),
    handler: ({ services, session, ip }, input) =>
      services.twoFactor.disable(session.user, input, ip),
    rest: {
      method: "POST",
      path: "/two-factor/disable",
      tag: "two-factor",
      summary: "Turn two-factor sign-in off: the password and a current code (or a recovery code)",
      errors: [429],
    },
  }),
  regenerateCodes: op({
    need: "self",
    kind: "mutation",
    input: ZTwoFactorRegenerate,
    output: ZRecoveryCodes,
    handler: ({ services, session, ip }, input) =>
      services.twoFactor.regenerateCodes(session.user, input.code, ip),
    rest: {
      method: "POST",
      path: "/two-factor/recovery-codes",
      tag: "two-factor",
      summary:
        "Replace every recovery code with 10 new ones (a current code or a recovery code required)",
      errors: [429],
      examples: { body: { code: "123456" }, response: CODES_EXAMPLE },
    },
  }),
};
