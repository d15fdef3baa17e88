/**
 * What a typed second-factor code is, and recovery codes: ten of them, "xxxxx-xxxxx" in
 * lowercase base32 (50 random bits each), shown once and stored as SHA-256 only.
 */
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from "../../../shared/schemas/two-factor.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";

const RECOVERY_CHARS = 10;
const TOTP_SHAPE = new RegExp(`^\\d{${TOTP_DIGITS}}$`);
const RECOVERY_SHAPE = new RegExp(`^[a-z2-7]{${RECOVERY_CHARS}}$`);

export type ReadCode = { kind: "totp"; code: string } | { kind: "recovery_code"; code: string };

/**
 * A code as typed, read: spaces and dashes dropped, letters lowered; 6 digits are a TOTP code,
 * 10 base32 characters a recovery code, anything else null (wrong, and counted as a failure).
 */
export function readCode(typed: string): ReadCode | null {
  const code = typed.replace(/[\s-]/g, "").toLowerCase();
  if (TOTP_SHAPE.test(code)) return { kind: "totp", code };
  if (RECOVERY_SHAPE.test(code)) return { kind: "recovery_code", code };
  return null;
}

/** Fresh recovery codes, as shown to the person ("abcde-fgh23"). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    // 7 random bytes are 12 base32 characters; the first 10 carry 50 uniform bits.
    const chars = randomToken(7).slice(0, RECOVERY_CHARS);
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored for a recovery code (read with readCode first, so its form does not matter). */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.replace(/[\s-]/g, "").toLowerCase());
}
