import { describe, expect, it } from "vitest";
import { embeddedIPv4, isNonPublicAddress, nonPublicReason } from "./non-public-address.ts";

const NOT_PUBLIC = true;
const PUBLIC = false;

describe("isNonPublicAddress", () => {
  it.each([
    // IPv4
    ["this network", "0.0.0.0", NOT_PUBLIC],
    ["this network, top", "0.255.255.255", NOT_PUBLIC],
    ["private 10/8", "10.1.2.3", NOT_PUBLIC],
    ["carrier-grade NAT", "100.64.0.1", NOT_PUBLIC],
    ["carrier-grade NAT, top", "100.127.255.255", NOT_PUBLIC],
    ["just above carrier-grade NAT", "100.128.0.1", PUBLIC],
    ["loopback", "127.0.0.1", NOT_PUBLIC],
    ["loopback, elsewhere in 127/8", "127.255.0.9", NOT_PUBLIC],
    ["link-local (cloud metadata)", "169.254.169.254", NOT_PUBLIC],
    ["private 172.16/12", "172.16.0.1", NOT_PUBLIC],
    ["private 172.16/12, top", "172.31.255.255", NOT_PUBLIC],
    ["just above 172.16/12", "172.32.0.1", PUBLIC],
    ["IETF protocol assignments", "192.0.0.9", NOT_PUBLIC],
    ["documentation TEST-NET-1", "192.0.2.1", NOT_PUBLIC],
    ["6to4 relay anycast", "192.88.99.1", NOT_PUBLIC],
    ["private 192.168/16", "192.168.1.1", NOT_PUBLIC],
    ["benchmarking", "198.18.0.1", NOT_PUBLIC],
    ["benchmarking, second /16", "198.19.255.1", NOT_PUBLIC],
    ["documentation TEST-NET-2", "198.51.100.7", NOT_PUBLIC],
    ["documentation TEST-NET-3", "203.0.113.7", NOT_PUBLIC],
    ["multicast", "224.0.0.1", NOT_PUBLIC],
    ["multicast, top", "239.255.255.250", NOT_PUBLIC],
    ["reserved 240/4", "240.0.0.1", NOT_PUBLIC],
    ["broadcast", "255.255.255.255", NOT_PUBLIC],
    ["Google DNS", "8.8.8.8", PUBLIC],
    ["Cloudflare DNS", "1.1.1.1", PUBLIC],
    ["just below 10/8", "9.255.255.255", PUBLIC],
    ["just above 192.0.2/24", "192.0.3.1", PUBLIC],
    // IPv6
    ["unspecified", "::", NOT_PUBLIC],
    ["IPv6 loopback", "::1", NOT_PUBLIC],
    ["IPv6 loopback, long form", "0:0:0:0:0:0:0:1", NOT_PUBLIC],
    ["unique local", "fd00::1", NOT_PUBLIC],
    ["unique local fc00::/8", "fc00::1", NOT_PUBLIC],
    ["link-local", "fe80::1", NOT_PUBLIC],
    ["link-local with a zone", "fe80::1%eth0", NOT_PUBLIC],
    ["site-local", "fec0::1", NOT_PUBLIC],
    ["multicast", "ff02::1", NOT_PUBLIC],
    ["documentation 2001:db8::/32", "2001:db8::1", NOT_PUBLIC],
    ["documentation 3fff::/20", "3fff::1", NOT_PUBLIC],
    ["discard-only", "100::1", NOT_PUBLIC],
    ["IETF protocol assignments 2001::/23", "2001:2::1", NOT_PUBLIC],
    ["Teredo, public client", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", NOT_PUBLIC],
    ["Teredo, loopback client", "2001::80ff:fffe", NOT_PUBLIC],
    ["outside 2000::/3", "4000::1", NOT_PUBLIC],
    ["Google DNS over IPv6", "2001:4860:4860::8888", PUBLIC],
    ["Cloudflare DNS over IPv6", "2606:4700:4700::1111", PUBLIC],
    ["just above 2001::/23", "2001:200::1", PUBLIC],
    // IPv6 forms that embed an IPv4 address, judged by it
    ["IPv4-compatible loopback", "::127.0.0.1", NOT_PUBLIC],
    ["IPv4-compatible loopback, hex", "::7f00:1", NOT_PUBLIC],
    ["IPv4-compatible public", "::8.8.8.8", PUBLIC],
    ["IPv4-mapped loopback, dotted", "::ffff:127.0.0.1", NOT_PUBLIC],
    ["IPv4-mapped loopback, hex", "::ffff:7f00:1", NOT_PUBLIC],
    ["IPv4-mapped loopback, upper case", "::FFFF:127.0.0.1", NOT_PUBLIC],
    ["IPv4-mapped private", "::ffff:192.168.1.1", NOT_PUBLIC],
    ["IPv4-mapped metadata, long form", "0:0:0:0:0:ffff:a9fe:a9fe", NOT_PUBLIC],
    ["IPv4-mapped public", "::ffff:8.8.8.8", PUBLIC],
    ["IPv4-mapped public, hex", "::ffff:808:808", PUBLIC],
    ["IPv4-translated loopback", "::ffff:0:7f00:1", NOT_PUBLIC],
    ["IPv4-translated loopback, dotted", "::ffff:0:127.0.0.1", NOT_PUBLIC],
    ["IPv4-translated public", "::ffff:0:808:808", PUBLIC],
    ["NAT64 loopback", "64:ff9b::7f00:1", NOT_PUBLIC],
    ["NAT64 private, dotted", "64:ff9b::10.0.0.1", NOT_PUBLIC],
    ["NAT64 public (DNS64's answer for an IPv4-only host)", "64:ff9b::8.8.8.8", PUBLIC],
    ["NAT64 local-use, loopback", "64:ff9b:1::7f00:1", NOT_PUBLIC],
    ["NAT64 local-use, public", "64:ff9b:1::808:808", NOT_PUBLIC],
    ["NAT64 local-use, /64 layout of loopback", "64:ff9b:1:0:7f:0:100:0", NOT_PUBLIC],
    ["6to4 of loopback", "2002:7f00:1::1", NOT_PUBLIC],
    ["6to4 of private", "2002:c0a8:101::1", NOT_PUBLIC],
    ["6to4 of metadata", "2002:a9fe:a9fe::1", NOT_PUBLIC],
    ["6to4 of public", "2002:808:808::1", PUBLIC],
    // Not an address at all: never treated as public
    ["a name", "example.com", NOT_PUBLIC],
    ["empty", "", NOT_PUBLIC],
    ["IPv4 with a leading zero", "127.0.0.01", NOT_PUBLIC],
    ["bracketed", "[::1]", NOT_PUBLIC],
  ])("%s: %s", (_label, ip, expected) => {
    expect(isNonPublicAddress(ip)).toBe(expected);
  });
});

describe("nonPublicReason", () => {
  it.each([
    ["127.0.0.1", "loopback (127.0.0.0/8)"],
    ["255.255.255.255", "broadcast (255.255.255.255/32)"],
    ["::1", "loopback (::1/128)"],
    ["::ffff:7f00:1", "IPv4-mapped (::ffff:0:0/96) of 127.0.0.1, loopback (127.0.0.0/8)"],
    ["64:ff9b::a00:1", "NAT64 (64:ff9b::/96) of 10.0.0.1, private (10.0.0.0/8)"],
    ["2002:7f00:1::1", "6to4 (2002::/16) of 127.0.0.1, loopback (127.0.0.0/8)"],
    ["2001::1", "Teredo (2001::/32)"],
    ["4000::1", "outside global unicast (2000::/3)"],
    ["example.com", "not an IP address"],
    ["8.8.8.8", null],
    ["2002:808:808::1", null],
  ])("%s: %s", (ip, reason) => {
    expect(nonPublicReason(ip)).toBe(reason);
  });
});

describe("embeddedIPv4", () => {
  it.each([
    ["IPv4-compatible", "::8.8.8.8", "8.8.8.8"],
    ["IPv4-mapped, hex", "::ffff:808:808", "8.8.8.8"],
    ["IPv4-translated", "::ffff:0:7f00:1", "127.0.0.1"],
    ["NAT64", "64:ff9b::808:808", "8.8.8.8"],
    ["6to4", "2002:c0a8:101::1", "192.168.1.1"],
    ["loopback is not IPv4-compatible 0.0.0.1", "::1", null],
    ["local-use NAT64 has no one reading", "64:ff9b:1::808:808", null],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2", null],
    ["plain IPv6", "2606:4700:4700::1111", null],
    ["IPv4 itself", "8.8.8.8", null],
    ["not an address", "example.com", null],
  ])("%s: %s", (_label, ip, v4) => {
    expect(embeddedIPv4(ip)).toBe(v4);
  });
});
