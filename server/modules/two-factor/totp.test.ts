import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { base32Secret, keyUri, matchingStep, newTotpKey, timeStep, totpAt } from "./totp.ts";

/** RFC 6238 appendix B's SHA-1 secret: the ASCII bytes of "12345678901234567890". */
const RFC_KEY = new TextEncoder().encode("12345678901234567890");
const at = (seconds: number) => new Date(seconds * 1000);

describe("TOTP (RFC 6238)", () => {
  // Appendix B, SHA-1 rows: the published 8-digit values, and the 6-digit codes apps show
  // (the same number modulo 10^6: its last six digits).
  it.each([
    [59, "0000000000000001", "94287082"],
    [1111111109, "00000000023523EC", "07081804"],
    [1111111111, "00000000023523ED", "14050471"],
    [1234567890, "000000000273EF07", "89005924"],
    [2000000000, "0000000003F940AA", "69279037"],
    [20000000000, "0000000027BC86AA", "65353130"],
  ])("at %i s (step %s) the code is %s", (seconds, stepHex, eight) => {
    expect(timeStep(at(seconds))).toBe(BigInt(`0x${stepHex}`));
    expect(totpAt(RFC_KEY, at(seconds), 8)).toBe(eight);
    expect(totpAt(RFC_KEY, at(seconds))).toBe(eight.slice(2));
  });

  it("accepts the step before and after now, and names which step matched", () => {
    const now = at(1111111111); // step 0x23523ED; 59 s earlier or 30 s later are its neighbours
    const step = timeStep(now);
    expect(matchingStep(RFC_KEY, totpAt(RFC_KEY, now), now)).toBe(step);
    expect(matchingStep(RFC_KEY, totpAt(RFC_KEY, at(1111111111 - 30)), now)).toBe(step - 1n);
    expect(matchingStep(RFC_KEY, totpAt(RFC_KEY, at(1111111111 + 30)), now)).toBe(step + 1n);
  });

  it.each([
    ["two steps back", -60],
    ["two steps ahead", +60],
  ])("refuses a code from %s", (_, offset) => {
    const now = at(1111111111);
    expect(matchingStep(RFC_KEY, totpAt(RFC_KEY, at(1111111111 + offset)), now)).toBeNull();
  });

  it.each(["", "12345", "1234567", "abcdef", "050470"])(
    "refuses %j, which is not the current code",
    (code) => {
      expect(matchingStep(RFC_KEY, code, at(1111111111))).toBeNull();
    },
  );

  it("makes 20-byte secrets that survive base32 and the key URI", () => {
    const key = newTotpKey();
    expect(key.byteLength).toBe(20);
    const secret = base32Secret(key);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeBase32IgnorePadding(secret)).toEqual(key);
    const uri = new URL(keyUri("merchant@example.com", key));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Warden:merchant@example.com");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: "Warden",
      algorithm: "SHA1",
      secret,
      period: "30",
      digits: "6",
    });
    expect(base32Secret(newTotpKey())).not.toBe(secret);
  });
});
