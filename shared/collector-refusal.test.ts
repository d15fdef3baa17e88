import { describe, expect, it } from "vitest";
import { refusedOriginOf, refusedToken } from "./collector-refusal.ts";

describe("refusal tokens", () => {
  it.each([
    "http://localhost:4000",
    "https://shop.example.com",
    "http://[::1]:3000",
    "https://xn--bcher-kva.example",
  ])("names %s and reads it back", (origin) => {
    const token = refusedToken(origin);
    expect(token).toMatch(/^wdn_sig_refused_[A-Za-z0-9_-]+$/);
    expect(refusedOriginOf(token)).toBe(origin);
  });

  it.each([
    ["an ordinary token", "wdn_sig_0123456789abcdef0123"],
    ["an empty refusal", "wdn_sig_refused_"],
    ["characters outside base64url", "wdn_sig_refused_a+b/c"],
    ["base64url that is not whole", "wdn_sig_refused_a"],
  ])("is not one: %s", (_name, token) => {
    expect(refusedOriginOf(token)).toBeNull();
  });
});
