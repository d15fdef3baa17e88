/**
 * API keys that prove they are ours before any lookup. A key is its prefix, 32 random
 * characters and an 8-character tag: the first 40 bits of an HMAC of the rest under a key
 * derived from ENCRYPTION_KEY. A made-up key fails the tag and is refused without a query
 * (forging one tag takes about 2^40 tries); every instance sharing ENCRYPTION_KEY checks the
 * same tags. Keys made before tags (39 characters after the prefix) have none: they are
 * known from the table of live keys loaded at start (api-keys.service.ts).
 */
import { createHmac } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { randomToken } from "../../lib/tokens.ts";

const BODY_BYTES = 20;
const BODY_CHARS = 32;
const TAG_BYTES = 5;
const TAG_CHARS = 8;

export type KeyTags = {
  /** A new key: `prefix`, the random body, the tag. */
  mint(prefix: string): string;
  /** Whether `key` (of `prefix`) carries a tag made with our secret. */
  verify(prefix: string, key: string): boolean;
};

export function createKeyTags(secret: Buffer): KeyTags {
  const tagOf = (signed: string) =>
    encodeBase32LowerCaseNoPadding(
      createHmac("sha256", secret).update(signed).digest().subarray(0, TAG_BYTES),
    );
  return {
    mint(prefix) {
      const signed = `${prefix}${randomToken(BODY_BYTES)}`;
      return `${signed}${tagOf(signed)}`;
    },
    verify(prefix, key) {
      if (key.length !== prefix.length + BODY_CHARS + TAG_CHARS || !key.startsWith(prefix)) {
        return false;
      }
      const signed = key.slice(0, -TAG_CHARS);
      // Not secret-dependent timing worth guarding: the tag only spares a query.
      return tagOf(signed) === key.slice(-TAG_CHARS);
    },
  };
}
