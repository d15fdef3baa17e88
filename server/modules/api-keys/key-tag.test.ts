import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createKeyTags } from "./key-tag.ts";

const tags = createKeyTags(randomBytes(32));
const other = createKeyTags(randomBytes(32));

describe("API key tags", () => {
  const key = tags.mint("wdn_sk_");

  it("mints keys of the prefix, 40 characters after it, that verify", () => {
    expect(key).toMatch(/^wdn_sk_[a-z2-7]{40}$/);
    expect(tags.verify("wdn_sk_", key)).toBe(true);
  });

  it.each([
    ["another secret's key", other.mint("wdn_sk_")],
    ["one changed character", `${key.slice(0, 10)}${key[10] === "a" ? "b" : "a"}${key.slice(11)}`],
    ["a changed tag", `${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}`],
    ["a key made before tags (39 characters)", `wdn_sk_${"a".repeat(39)}`],
    ["a truncated key", key.slice(0, -1)],
    ["the key under another prefix", key.replace("wdn_sk_", "wdn_pk_")],
    ["nothing", ""],
  ])("refuses %s", (_name, candidate) => {
    expect(tags.verify("wdn_sk_", candidate)).toBe(false);
  });
});
