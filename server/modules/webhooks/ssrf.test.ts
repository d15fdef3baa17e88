import { describe, expect, it } from "vitest";
import { endpointProblem, guardedLookup, isPrivateAddress } from "./ssrf.ts";

const PRIVATE =
  "must not be a private, loopback or link-local address (set WEBHOOKS_ALLOW_PRIVATE=true to allow it on a self-hosted network)";

describe("webhook SSRF guard", () => {
  // The whole list is table-tested in server/lib/non-public-address.test.ts; this is the
  // name the sender's check at every send uses.
  it.each([
    ["127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["2002:7f00:1::1", true],
    ["8.8.8.8", false],
  ])("%s is private: %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });

  it.each([
    ["loopback", "http://127.0.0.1:8080/hook", PRIVATE],
    ["loopback in octal", "http://0177.0.0.1/hook", PRIVATE],
    ["loopback as one number", "http://2130706433/hook", PRIVATE],
    ["IPv6 loopback", "http://[::1]/hook", PRIVATE],
    ["localhost", "http://localhost/hook", PRIVATE],
    ["localhost with a trailing dot", "http://localhost./hook", PRIVATE],
    ["a .localhost name", "http://app.localhost/hook", PRIVATE],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data", PRIVATE],
    ["documentation 192.0.2/24", "https://192.0.2.10/hook", PRIVATE],
    ["IPv4-compatible loopback", "http://[::127.0.0.1]/hook", PRIVATE],
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/hook", PRIVATE],
    ["IPv4-translated loopback", "http://[::ffff:0:7f00:1]/hook", PRIVATE],
    ["NAT64 loopback", "http://[64:ff9b::127.0.0.1]/hook", PRIVATE],
    ["local-use NAT64", "http://[64:ff9b:1::7f00:1]/hook", PRIVATE],
    ["6to4 of loopback", "http://[2002:7f00:1::1]/hook", PRIVATE],
    ["Teredo", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", PRIVATE],
    ["unique local", "http://[fd00::1]/hook", PRIVATE],
    ["not http", "ftp://example.com/hook", "must be an http or https URL"],
    ["credentials", "https://user:pw@example.com/hook", "must not carry a user name or password"],
    ["not a URL", "not a url", "must be an absolute URL"],
    ["public IPv4", "https://8.8.8.8/hook", null],
    ["public IPv6", "https://[2606:4700:4700::1111]/hook", null],
    ["6to4 of a public address", "https://[2002:808:808::1]/hook", null],
  ])("%s: %s", async (_label, url, problem) => {
    expect(await endpointProblem(url, false)).toBe(problem);
  });

  it("lets private addresses through when the operator allows them", async () => {
    expect(await endpointProblem("http://127.0.0.1:8080/hook", true)).toBeNull();
    expect(await endpointProblem("http://[::ffff:7f00:1]/hook", true)).toBeNull();
  });

  it("refuses a name that resolves to a private address in the connection's own lookup", async () => {
    const looked = await new Promise<{ code?: string; address: unknown }>((resolve) =>
      guardedLookup(false)("localhost", {}, (error, address) =>
        resolve({ code: error?.code, address }),
      ),
    );
    expect(looked.code).toBe("EPRIVATE");
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(true)("localhost", {}, (_error, address) => resolve(address)),
    );
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
