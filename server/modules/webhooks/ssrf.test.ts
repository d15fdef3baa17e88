import { describe, expect, it } from "vitest";
import { endpointProblem, isPrivateAddress } from "./ssrf.ts";

describe("webhook SSRF guard", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fe80::1", true],
    ["fd00::1", true],
    ["::ffff:127.0.0.1", true],
    ["203.0.113.7", false],
    ["8.8.8.8", false],
    ["2606:4700:4700::1111", false],
  ])("%s is private: %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });

  it.each([
    ["http://127.0.0.1:8080/hook", "must not be a private, loopback or link-local address"],
    ["http://[::1]/hook", "must not be a private, loopback or link-local address"],
    ["http://localhost/hook", "must not be a private address"],
    [
      "http://169.254.169.254/latest/meta-data",
      "must not be a private, loopback or link-local address",
    ],
    ["ftp://example.com/hook", "must be an http or https URL"],
    ["https://user:pw@example.com/hook", "must not carry a user name or password"],
    ["not a url", "must be an absolute URL"],
    ["https://8.8.8.8/hook", null],
  ])("%s: %s", async (url, problem) => {
    expect(await endpointProblem(url, false)).toBe(problem);
  });

  it("lets private addresses through when the operator allows them", async () => {
    expect(await endpointProblem("http://127.0.0.1:8080/hook", true)).toBeNull();
  });
});
