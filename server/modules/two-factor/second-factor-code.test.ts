import { describe, expect, it } from "vitest";
import { newRecoveryCodes, readCode, recoveryCodeHash } from "./second-factor-code.ts";

describe("second-factor codes", () => {
  it.each([
    ["123456", { kind: "totp", code: "123456" }],
    [" 123 456 ", { kind: "totp", code: "123456" }],
    ["abcde-fgh23", { kind: "recovery_code", code: "abcdefgh23" }],
    ["ABCDE FGH23", { kind: "recovery_code", code: "abcdefgh23" }],
    ["12345", null],
    ["1234567", null],
    ["abcde-fgh2", null],
    // 0, 1, 8 and 9 are not base32: no recovery code holds them.
    ["abcde-fgh01", null],
    ["", null],
  ])("reads %j as %j", (typed, read) => {
    expect(readCode(typed)).toEqual(read);
  });

  it("makes ten distinct codes that read as recovery codes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      expect(readCode(code)?.kind).toBe("recovery_code");
    }
  });

  it("hashes a code the same however it was typed, and different codes differently", () => {
    const hash = recoveryCodeHash("abcde-fgh23");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeHash("ABCDE FGH23")).toBe(hash);
    expect(recoveryCodeHash("abcdefgh23")).toBe(hash);
    expect(recoveryCodeHash("abcde-fgh24")).not.toBe(hash);
  });
});
