import { describe, expect, it } from "vitest";
import { lookupIp } from "./geo.ts";

// Addresses whose country and ASN are long-standing in the shipped data (looked up in
// @ip-location-db 2.3.2026061719). A data update that moves one is worth a look.
describe("lookupIp on public addresses", () => {
  it.each([
    ["Google DNS", "8.8.8.8", "US", 15169, "Google LLC", true],
    ["Google DNS over IPv6", "2001:4860:4860::8888", "US", 15169, "Google LLC", true],
    ["IPv4-mapped Google DNS", "::ffff:8.8.8.8", "US", 15169, "Google LLC", true],
    ["IPv4-mapped Google DNS, hex", "::ffff:808:808", "US", 15169, "Google LLC", true],
    ["IPv4-compatible Google DNS", "::8.8.8.8", "US", 15169, "Google LLC", true],
    ["NAT64 of Google DNS", "64:ff9b::8.8.8.8", "US", 15169, "Google LLC", true],
    ["6to4 of Google DNS", "2002:808:808::1", "US", 15169, "Google LLC", true],
    ["Cloudflare DNS (quoted org with a comma)", "1.1.1.1", "AU", 13335, "Cloudflare, Inc.", false],
    ["Quad9", "9.9.9.9", "US", 19281, "Quad9", false],
    [
      "RIPE NCC",
      "193.0.6.139",
      "NL",
      3333,
      "Reseaux IP Europeens Network Coordination Centre (RIPE NCC)",
      false,
    ],
    [
      "RIPE NCC over IPv6",
      "2001:67c:2e8:22::c100:68b",
      "NL",
      3333,
      "Reseaux IP Europeens Network Coordination Centre (RIPE NCC)",
      false,
    ],
    ["Yandex", "77.88.8.8", "RU", 13238, "YANDEX LLC", false],
    ["NIC.br", "200.160.2.3", "BR", 22548, "Nucleo de Inf. e Coord. do Ponto BR - NIC.BR", false],
    ["Hetzner", "5.9.0.1", "DE", 24940, "Hetzner Online GmbH", true],
    ["Hetzner over IPv6", "2a01:4f8::1", "DE", 24940, "Hetzner Online GmbH", true],
    ["AWS over IPv6", "2600:1f18::1", "US", 14618, "Amazon.com, Inc.", true],
    ["OVH over IPv6", "2001:41d0::1", "FR", 16276, "OVH SAS", true],
    ["Scaleway", "51.15.0.1", "FR", 12876, "Scaleway SAS", true],
    ["Vultr", "45.76.0.1", "US", 20473, "The Constant Company, LLC", true],
    ["Oracle Cloud", "129.146.0.1", "US", 31898, "Oracle Corporation", true],
  ])("%s (%s)", (_name, ip, country, asn, org, hosting) => {
    expect(lookupIp(ip)).toEqual({ country, asn, org, hosting });
  });
});

describe("lookupIp on addresses no data set can place", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["private 10/8", "10.1.2.3"],
    ["private 172.16/12", "172.31.255.1"],
    ["private 192.168/16", "192.168.0.10"],
    ["carrier-grade NAT", "100.64.1.1"],
    ["link-local", "169.254.1.1"],
    ["documentation", "203.0.113.5"],
    ["multicast", "224.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["IPv6 loopback", "::1"],
    ["IPv6 unique local", "fd12:3456::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 documentation", "2001:db8::1"],
    ["IPv4-mapped private", "::ffff:192.168.1.1"],
    ["IPv4-mapped loopback, hex", "::ffff:7f00:1"],
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["IPv4-translated loopback", "::ffff:0:7f00:1"],
    ["NAT64 loopback", "64:ff9b::7f00:1"],
    ["local-use NAT64", "64:ff9b:1::7f00:1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["benchmarking", "198.18.0.1"],
    ["6to4 relay anycast", "192.88.99.1"],
    ["documentation 192.0.2/24", "192.0.2.1"],
    ["not an address", "example.com"],
    ["empty", ""],
  ])("%s (%s)", (_name, ip) => {
    expect(lookupIp(ip)).toEqual({ country: null, asn: null, org: null, hosting: false });
  });
});
