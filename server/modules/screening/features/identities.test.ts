import { describe, expect, it } from "vitest";
import { createDigestKeys, digest, keyedFromLegacy, legacyDigest } from "./identities.ts";

const keyOf = createDigestKeys(Buffer.alloc(32, 1));
const otherSecret = createDigestKeys(Buffer.alloc(32, 2));

describe("keyed identity digests", () => {
  const a = keyOf("account-a");
  const b = keyOf("account-b");

  it.each([
    [
      "32 lowercase hex characters (the backtest's digest table keeps these)",
      () => /^[0-9a-f]{32}$/.test(digest(a, "device", "d1")),
    ],
    [
      "the same for the same account, kind and value",
      () => digest(a, "device", "d1") === digest(keyOf("account-a"), "device", "d1"),
    ],
    ["different in another account", () => digest(a, "device", "d1") !== digest(b, "device", "d1")],
    [
      "different under another secret",
      () => digest(a, "device", "d1") !== digest(otherSecret("account-a"), "device", "d1"),
    ],
    ["different for another kind", () => digest(a, "device", "x") !== digest(a, "user", "x")],
    ["never the unkeyed digest", () => digest(a, "device", "d1") !== legacyDigest("device", "d1")],
    [
      "the keyed form of the unkeyed one (what SQL computes for old rows)",
      () => digest(a, "email", "j@x.io") === keyedFromLegacy(a, legacyDigest("email", "j@x.io")),
    ],
    [
      "one key per account, 64 hex characters",
      () => /^[0-9a-f]{64}$/.test(a) && keyOf("account-a") === a,
    ],
  ])("is %s", (_name, holds) => {
    expect(holds()).toBe(true);
  });
});
