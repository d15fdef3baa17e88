import { describe, expect, it } from "vitest";
import { ipKeys, normalizeEmail } from "./identity.ts";

describe("normalizeEmail", () => {
  it.each([
    ["folds gmail dots and +tags", "John.Doe+shop@gmail.com", "johndoe@gmail.com"],
    ["maps googlemail to gmail", "j.doe@googlemail.com", "jdoe@gmail.com"],
    ["trims and lowercases", "  Alice@Example.COM ", "alice@example.com"],
    [
      "strips +tags on every domain (a company's or a farm's own)",
      "a+b@example.com",
      "a@example.com",
    ],
    [
      "keeps dots and dashes outside gmail and yahoo",
      "first.last-x+y@acme.io",
      "first.last-x@acme.io",
    ],
    ["keeps dots outside gmail", "a.b+x@outlook.com", "a.b@outlook.com"],
    ["strips hotmail +tags", "a+x@hotmail.co.uk", "a@hotmail.co.uk"],
    ["strips live +tags", "a+x@live.com", "a@live.com"],
    ["strips icloud +tags", "a+x@icloud.com", "a@icloud.com"],
    ["strips yahoo - suffixes", "Ab-shop@yahoo.com", "ab@yahoo.com"],
    ["strips fastmail +tags", "a.b+x@fastmail.com", "a.b@fastmail.com"],
    ["strips proton.me +tags", "a+x@proton.me", "a@proton.me"],
    ["strips protonmail.com +tags", "A.B+x@ProtonMail.com", "a.b@protonmail.com"],
    ["strips pm.me +tags", "a+x@pm.me", "a@pm.me"],
    ["keeps a proton address that is only a tag", "+x@proton.me", "+x@proton.me"],
    ["returns non-addresses lowercased", " Not-An-Email ", "not-an-email"],
    ["leaves an empty local part", "@Example.com", "@example.com"],
    ["leaves an empty domain", "A@", "a@"],
    ["leaves two @ signs", "a@b@c.com", "a@b@c.com"],
    ["leaves quoted local parts", '"A+b"@gmail.com', '"a+b"@gmail.com'],
    ["returns empty for empty", "", ""],
  ])("%s", (_name, input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });
});

describe("ipKeys", () => {
  it.each([
    ["IPv4 and its /24", "203.0.113.77", "203.0.113.77", "203.0.113.0/24"],
    ["IPv4 with spaces", " 8.8.4.4 ", "8.8.4.4", "8.8.4.0/24"],
    ["IPv4-mapped IPv6 as IPv4", "::ffff:1.2.3.4", "1.2.3.4", "1.2.3.0/24"],
    ["IPv4-mapped IPv6 in hex", "::FFFF:0102:0304", "1.2.3.4", "1.2.3.0/24"],
    ["IPv6 /64 and /48", "2001:db8:1:2::5", "2001:db8:1:2::/64", "2001:db8:1::/48"],
    ["IPv6 written in full", "2001:0DB8:0001:0002:abcd::1", "2001:db8:1:2::/64", "2001:db8:1::/48"],
    [
      "IPv6 with no ::",
      "2a00:1450:4001:82a:0:0:0:200e",
      "2a00:1450:4001:82a::/64",
      "2a00:1450:4001::/48",
    ],
    ["IPv6 with zeros inside the prefix", "2001:db8:0:0:1::1", "2001:db8::/64", "2001:db8::/48"],
    ["IPv6 loopback", "::1", "::/64", "::/48"],
    ["IPv6 with a zone index", "fe80::1%eth0", "fe80::/64", "fe80::/48"],
    ["IPv6 with a single zero group", "2001:db8:0:1::", "2001:db8:0:1::/64", "2001:db8::/48"],
    ["IPv6 with an embedded IPv4 (NAT64)", "64:ff9b::192.0.2.1", "64:ff9b::/64", "64:ff9b::/48"],
  ])("%s", (_name, input, ip, subnet) => {
    expect(ipKeys(input)).toEqual({ ip, subnet });
  });

  it.each(["", "1.2.3", "1.2.3.256", "example.com", "2001:db8:::1", "2001:db8::1::2"])(
    "throws TypeError on %j",
    (input) => {
      expect(() => ipKeys(input)).toThrow(TypeError);
    },
  );
});
