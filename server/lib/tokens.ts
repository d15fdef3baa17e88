/** Random tokens and their hashes, per Lucia's session guide (oslojs). */
import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** `bytes` random bytes as lowercase base32 (20 bytes = 160 bits). */
export function randomToken(bytes = 20): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return encodeBase32LowerCaseNoPadding(buffer);
}

export function sha256Bytes(text: string): Uint8Array {
  return sha256(new TextEncoder().encode(text));
}

export function sha256Hex(text: string): string {
  return encodeHexLowerCase(sha256Bytes(text));
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && constantTimeEqual(a, b);
}
