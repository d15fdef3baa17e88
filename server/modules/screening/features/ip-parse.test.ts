import { describe, expect, it } from "vitest";
import { formatIPv4, formatIPv6, ipv6Prefix, parseIp } from "./ip-parse.ts";

/** An address parsed and written back: its canonical text, or null when it does not parse. */
function roundTrip(text: string): string | null {
  const parsed = parseIp(text);
  if (parsed === null) return null;
  return parsed.version === 4 ? formatIPv4(parsed.value) : formatIPv6(parsed.groups);
}

describe("parseIp and format", () => {
  it.each([
    { input: "203.0.113.7", want: "203.0.113.7", why: "IPv4 as it is" },
    { input: " 203.0.113.7 ", want: "203.0.113.7", why: "trimmed" },
    { input: "::ffff:203.0.113.7", want: "203.0.113.7", why: "IPv4-mapped IPv6 is the IPv4 host" },
    { input: "::ffff:cb00:7107", want: "203.0.113.7", why: "the same mapping in hex groups" },
    {
      input: "2001:DB8:0:0:0:0:0:1",
      want: "2001:db8::1",
      why: "lowercase, longest zero run as ::",
    },
    { input: "2001:db8:0:1:0:0:0:1", want: "2001:db8:0:1::1", why: "the longer zero run wins" },
    { input: "2001:db8:0:1:1:1:1:1", want: "2001:db8:0:1:1:1:1:1", why: "one zero group stays" },
    { input: "fe80::1%eth0", want: "fe80::1", why: "a zone index is dropped" },
    {
      input: "64:ff9b::192.0.2.33",
      want: "64:ff9b::c000:221",
      why: "an embedded quad fills two groups",
    },
    { input: "::", want: "::", why: "all zeros" },
    { input: "not an ip", want: null, why: "text" },
    { input: "256.1.1.1", want: null, why: "an octet out of range" },
    { input: "", want: null, why: "empty" },
  ])("$input → $want ($why)", ({ input, want }) => {
    expect(roundTrip(input)).toBe(want);
  });
});

describe("ipv6Prefix", () => {
  const groups = [0x2001, 0xdb8, 1, 2, 3, 4, 5, 6];
  it.each([
    { bits: 64, want: "2001:db8:1:2::" },
    { bits: 48, want: "2001:db8:1::" },
    { bits: 128, want: "2001:db8:1:2:3:4:5:6" },
  ])("/$bits keeps the first $bits bits", ({ bits, want }) => {
    expect(formatIPv6(ipv6Prefix(groups, bits))).toBe(want);
  });
});
