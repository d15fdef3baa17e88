import { describe, expect, it } from "vitest";
import { randomToken, sameBytes, sha256Bytes, sha256Hex } from "./tokens.ts";

describe("tokens", () => {
  it("makes 160-bit base32 tokens that do not repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[a-z2-7]{32}$/);
  });

  it.each([
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    // Text is hashed as its UTF-8 bytes, as the stored hashes were made.
    ["héllo ✓", "5657cdef8a85a584e0e961e6f8247cf5d3f8ed21496ed6fdbcfd43a761e94245"],
  ])("hashes %j with SHA-256", (input, hex) => {
    expect(sha256Hex(input)).toBe(hex);
    expect(Buffer.from(sha256Bytes(input)).toString("hex")).toBe(hex);
  });

  it("compares hashes by content", () => {
    expect(sameBytes(sha256Bytes("a"), sha256Bytes("a"))).toBe(true);
    expect(sameBytes(sha256Bytes("a"), sha256Bytes("b"))).toBe(false);
    expect(sameBytes(new Uint8Array(2), new Uint8Array(3))).toBe(false);
  });
});
