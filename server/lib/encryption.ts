/**
 * AES-256-GCM for secrets at rest. A sealed value is "v1.<iv>.<tag>.<ciphertext>" (base64url);
 * the associated data binds it to its owner and field, so a ciphertext copied to another
 * account or column fails to open.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const VERSION = "v1";
const IV_BYTES = 12;
// A GCM tag shorter than the full 16 bytes is easier to forge: accept nothing shorter.
const TAG_BYTES = 16;
export const KEY_BYTES = 32;
export const KEY_FILE = "encryption.key";

export type Encryptor = {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
  /**
   * A 32-byte key of its own for `purpose` (HMAC-SHA256 of the purpose under this key), so
   * one configured secret yields independent keys for other jobs (API key tags, identity
   * digests) and every instance sharing ENCRYPTION_KEY derives the same ones.
   */
  derive(purpose: string): Buffer;
};

export class DecryptionError extends Error {}

export function createEncryptor(key: Buffer): Encryptor {
  if (key.length !== KEY_BYTES) throw new Error(`encryption key must be ${KEY_BYTES} bytes`);
  return {
    derive(purpose) {
      return createHmac("sha256", key).update(`warden:${purpose}`).digest();
    },
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, body]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed, associatedData) {
      const [version, iv, tag, body, ...rest] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) {
        throw new DecryptionError("not a sealed value");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(associatedData, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(body, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new DecryptionError("sealed value failed authentication");
      }
    },
  };
}

/** A 32-byte key written as 64 hex digits or as base64; null for anything else. */
export function parseEncryptionKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (key.length === KEY_BYTES) return key;
  }
  return null;
}

/**
 * Embedded mode without ENCRYPTION_KEY: the key generated into DATA_DIR on first start
 * (mode 0600) and read back afterwards, so stored secrets stay readable across restarts.
 */
export async function loadOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(path, `${randomBytes(KEY_BYTES).toString("base64")}\n`, {
      flag: "wx",
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  await chmod(path, 0o600).catch(() => {});
  const key = parseEncryptionKey(await readFile(path, "utf8"));
  if (!key) throw new Error(`${path} does not hold a 32-byte base64 or hex key`);
  return key;
}
