import { describe, expect, it } from "vitest";
import { nextPath } from "./next-path.ts";

describe("nextPath", () => {
  it.each([
    ["an invitation's page", "?next=%2Finvite%3Ftoken%3Dabc", "/invite?token=abc"],
    ["none", "", "/fallback"],
    ["another site", "?next=https%3A%2F%2Fevil.example", "/fallback"],
    ["a protocol-relative address", "?next=%2F%2Fevil.example", "/fallback"],
    ["a backslash trick", "?next=%2F%5Cevil.example", "/fallback"],
    ["a relative path", "?next=invite", "/fallback"],
  ])("%s", (_, query, expected) => {
    expect(nextPath(new URLSearchParams(query), "/fallback")).toBe(expected);
  });
});
