/**
 * RFC 6238 TOTP for tests, written from the RFC with node:crypto alone, so the tests compute
 * codes as an authenticator app would, independently of the server's implementation.
 */
import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Base32 (RFC 4648) to bytes; spaces, dashes and padding are ignored. */
export function base32Bytes(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  let bits = "";
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The code an app shows at `at` for this secret: HMAC-SHA-1, dynamic truncation, 30 s steps. */
export function totp(secret: string | Buffer, at: Date, digits = 6): string {
  const key = typeof secret === "string" ? base32Bytes(secret) : secret;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 1000 / 30)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac.at(-1) as number) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}
