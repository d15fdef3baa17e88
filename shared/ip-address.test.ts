import { describe, expect, it } from "vitest";
import { canonicalIp, canonicalIpOrCidr } from "./ip-address.ts";

describe("canonicalIp", () => {
  it.each([
    ["IPv4 as is", "203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped, dotted", "::ffff:127.0.0.1", "127.0.0.1"],
    ["IPv4-mapped, upper case", "::FFFF:203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped, hex groups", "::ffff:7f00:1", "127.0.0.1"],
    ["IPv4-mapped, written out", "0:0:0:0:0:ffff:cb00:7107", "203.0.113.7"],
    ["IPv4-translated is not mapped", "::ffff:0:7f00:1", "::ffff:0:7f00:1"],
    ["IPv4-compatible is not mapped", "::127.0.0.1", "::7f00:1"],
    ["IPv6 lower case", "2001:DB8::1", "2001:db8::1"],
    ["IPv6 leading zeros and zero run", "2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["IPv6 longest zero run wins", "2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["IPv6 first of equal runs", "2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["IPv6 one zero group is not compressed", "2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["IPv6 all zeros", "::", "::"],
    ["IPv6 loopback", "::1", "::1"],
    ["IPv6 trailing run", "fe80:0:0:0:0:0:0:0", "fe80::"],
    ["not an address", "not:an:address", "not:an:address"],
  ])("%s: %s → %s", (_, input, expected) => {
    expect(canonicalIp(input)).toBe(expected);
  });
});

describe("canonicalIpOrCidr", () => {
  it.each([
    ["an address", "::ffff:127.0.0.1", "127.0.0.1"],
    ["an IPv4 range as is", "203.0.113.0/24", "203.0.113.0/24"],
    ["a mapped range is the IPv4 range", "::ffff:203.0.113.0/120", "203.0.113.0/24"],
    ["a mapped /128 is one IPv4 address's /32", "::ffff:cb00:7107/128", "203.0.113.7/32"],
    ["a mapped range wider than the block stays", "::ffff:0:0/90", "::ffff:0:0/90"],
    ["an IPv6 range in RFC 5952 form", "2001:DB8:0:0::/32", "2001:db8::/32"],
  ])("%s: %s → %s", (_, input, expected) => {
    expect(canonicalIpOrCidr(input)).toBe(expected);
  });
});
