import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import {
  createEncryptor,
  DecryptionError,
  KEY_FILE,
  loadOrCreateKeyFile,
  parseEncryptionKey,
} from "./encryption.ts";

const key = randomBytes(32);
const encryptor = createEncryptor(key);

describe("AES-256-GCM sealing", () => {
  it.each(["sk_test_51abcdef4242", "", "ünïcødé ✓", "x".repeat(5000)])(
    "round-trips %j",
    (plaintext) => {
      const sealed = encryptor.seal(plaintext, "acct-1:stripe_secret");
      expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]*$/);
      if (plaintext) expect(sealed).not.toContain(plaintext);
      expect(encryptor.open(sealed, "acct-1:stripe_secret")).toBe(plaintext);
    },
  );

  it("uses a fresh IV each time, so equal secrets seal differently", () => {
    const a = encryptor.seal("same", "ad");
    const b = encryptor.seal("same", "ad");
    expect(a).not.toBe(b);
  });

  const sealed = encryptor.seal("sk_live_51secretvalue", "acct-1:stripe_secret");
  const [version, iv, tag, body] = sealed.split(".") as [string, string, string, string];
  const flip = (part: string) => {
    const bytes = Buffer.from(part, "base64url");
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    return bytes.toString("base64url");
  };

  // The first bytes of the real tag: GCM without a fixed tag length would accept them.
  const truncate = (part: string, bytes: number) =>
    Buffer.from(part, "base64url").subarray(0, bytes).toString("base64url");

  it.each([
    ["a changed ciphertext", [version, iv, tag, flip(body)].join("."), "acct-1:stripe_secret"],
    ["a changed tag", [version, iv, flip(tag), body].join("."), "acct-1:stripe_secret"],
    ["a changed IV", [version, flip(iv), tag, body].join("."), "acct-1:stripe_secret"],
    ["another account's associated data", sealed, "acct-2:stripe_secret"],
    ["another field's associated data", sealed, "acct-1:stripe_webhook_secret"],
    ["an unknown version", ["v9", iv, tag, body].join("."), "acct-1:stripe_secret"],
    ["a value that is not sealed", "sk_live_51secretvalue", "acct-1:stripe_secret"],
    [
      "a tag truncated to 4 bytes",
      [version, iv, truncate(tag, 4), body].join("."),
      "acct-1:stripe_secret",
    ],
    [
      "a tag truncated to 12 bytes",
      [version, iv, truncate(tag, 12), body].join("."),
      "acct-1:stripe_secret",
    ],
  ])("refuses %s", (_case, value, associatedData) => {
    expect(() => encryptor.open(value, associatedData)).toThrow(DecryptionError);
  });

  it("refuses to open with another key", () => {
    expect(() => createEncryptor(randomBytes(32)).open(sealed, "acct-1:stripe_secret")).toThrow(
      DecryptionError,
    );
  });

  it("needs a 32-byte key", () => {
    expect(() => createEncryptor(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe("parseEncryptionKey", () => {
  it.each([
    ["64 hex digits", key.toString("hex")],
    ["base64", key.toString("base64")],
    ["base64url", key.toString("base64url")],
    ["base64 with surrounding whitespace", ` ${key.toString("base64")}\n`],
  ])("reads %s", (_case, text) => {
    expect(parseEncryptionKey(text)?.equals(key)).toBe(true);
  });

  it.each([
    ["too short", randomBytes(16).toString("base64")],
    ["too long", randomBytes(48).toString("hex")],
    ["not a key", "correct horse battery staple"],
    ["empty", ""],
  ])("refuses %s", (_case, text) => {
    expect(parseEncryptionKey(text)).toBeNull();
  });
});

describe("the key file in DATA_DIR", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("is generated once with mode 0600 and read back on the next start", async () => {
    const dir = await mkdtemp(join(tmpdir(), "warden-key-"));
    dirs.push(dir);
    const dataDir = join(dir, "data");
    const first = await loadOrCreateKeyFile(dataDir);
    expect(first).toHaveLength(32);
    expect((await stat(join(dataDir, KEY_FILE))).mode & 0o777).toBe(0o600);
    const second = await loadOrCreateKeyFile(dataDir);
    expect(second.equals(first)).toBe(true);
    expect(parseEncryptionKey(await readFile(join(dataDir, KEY_FILE), "utf8"))?.equals(first)).toBe(
      true,
    );
  });
});

describe("ENCRYPTION_KEY in the configuration", () => {
  const hex = key.toString("hex");

  it("is optional in embedded mode and parsed when given", () => {
    expect(loadConfig({}).encryptionKey).toBeUndefined();
    expect(loadConfig({ ENCRYPTION_KEY: hex }).encryptionKey?.equals(key)).toBe(true);
  });

  it("is required with DATABASE_URL, in one line", () => {
    const env = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/warden" };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^ENCRYPTION_KEY: required with DATABASE_URL/);
    expect(loadConfig({ ...env, ENCRYPTION_KEY: hex }).encryptionKey?.equals(key)).toBe(true);
  });

  it("names the variable without echoing a bad key", () => {
    const bad = "not-a-real-key-value";
    expect(() => loadConfig({ ENCRYPTION_KEY: bad })).toThrow(/^ENCRYPTION_KEY: must be 32 bytes/);
    try {
      loadConfig({ ENCRYPTION_KEY: bad });
    } catch (error) {
      expect((error as Error).message).not.toContain(bad);
    }
  });
});
