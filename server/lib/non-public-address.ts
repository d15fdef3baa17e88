/**
 * The one list of addresses that are not the public internet (RFC 6890's special-purpose
 * registries and friends). Screening's geo places none of them; decision webhooks send to
 * none of them unless the operator allows private targets. Pure: no lookup, no I/O.
 */
import { isIP } from "node:net";
import { ipv4Number, ipv6Number } from "../../shared/ip-number.ts";

type Range = { cidr: string; label: string; width: 32 | 128; bits: number; base: bigint };

const V4_RANGES = ranges(32, [
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared address space (carrier-grade NAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay anycast"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
]);

const V6_RANGES = ranges(128, [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["100::/64", "discard-only"],
  // The local-use NAT64 prefix (RFC 8215) is not globally reachable, and its IPv4 address may
  // sit at /48, /56, /64 or /96 (RFC 6052), so no one reading of it is safe: never public.
  ["64:ff9b:1::/48", "local-use NAT64"],
  // Teredo hides its client's IPv4 address (inverted) behind a relay: never public, rather
  // than judged by an address the tunnel, not this host, decides how to reach.
  ["2001::/32", "Teredo"],
  ["2001::/23", "IETF protocol assignments"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["fc00::/7", "unique local"],
  ["fec0::/10", "site-local (deprecated)"],
  ["fe80::/10", "link-local"],
  ["ff00::/8", "multicast"],
]);

/**
 * IPv6 forms that carry an IPv4 address, judged by that address: each reaches (through the
 * host's stack, a NAT64 translator or a 6to4 relay) the IPv4 host it embeds, so it is as
 * public as that host. Refusing them outright would refuse every IPv4-only receiver on an
 * IPv6-only network, where DNS64 answers 64:ff9b::a.b.c.d for it; RFC 6052 forbids the
 * well-known prefix for non-global IPv4 addresses, which is the line drawn here too.
 */
const EMBEDDING: { range: Range; v4: (value: bigint) => bigint }[] = [
  { range: range(128, "::ffff:0:0/96", "IPv4-mapped"), v4: low32 },
  { range: range(128, "::ffff:0:0:0/96", "IPv4-translated"), v4: low32 },
  { range: range(128, "::/96", "IPv4-compatible"), v4: low32 },
  { range: range(128, "64:ff9b::/96", "NAT64"), v4: low32 },
  // 6to4: the site's IPv4 address is bits 16 to 47.
  { range: range(128, "2002::/16", "6to4"), v4: (value) => (value >> 80n) & 0xffffffffn },
];

// Only 2000::/3 is allocated for global unicast (RFC 4291 2.4); the rest of the space is
// reserved or special, so it is not public whatever the list above says of it.
const GLOBAL_UNICAST = range(128, "2000::/3", "global unicast");

/** Why an address is not on the public internet ("loopback (127.0.0.0/8)"), or null if it is. */
export function nonPublicReason(ip: string): string | null {
  const text = withoutZone(ip);
  const version = isIP(text);
  if (version === 4) return v4Reason(ipv4Number(text));
  if (version !== 6) return "not an IP address";
  const value = v6Value(text);
  const special = V6_RANGES.find((r) => contains(r, value));
  if (special) return describe(special);
  const embedding = embeddingOf(value);
  if (embedding) {
    const reason = v4Reason(embedding.v4);
    return reason && `${describe(embedding.range)} of ${formatV4(embedding.v4)}, ${reason}`;
  }
  return contains(GLOBAL_UNICAST, value) ? null : "outside global unicast (2000::/3)";
}

/** Loopback, private, link-local, shared, documentation, multicast, reserved or not an address. */
export function isNonPublicAddress(ip: string): boolean {
  return nonPublicReason(ip) !== null;
}

/** The IPv4 address an IPv6 form above is judged by (2002:808:808::1 → 8.8.8.8), or null. */
export function embeddedIPv4(ip: string): string | null {
  const text = withoutZone(ip);
  if (isIP(text) !== 6) return null;
  const value = v6Value(text);
  if (V6_RANGES.some((r) => contains(r, value))) return null;
  const embedding = embeddingOf(value);
  return embedding ? formatV4(embedding.v4) : null;
}

function embeddingOf(value: bigint): { range: Range; v4: bigint } | undefined {
  const found = EMBEDDING.find((e) => contains(e.range, value));
  return found && { range: found.range, v4: found.v4(value) };
}

// A zone index (fe80::1%eth0) names a local interface, not part of the address.
function withoutZone(ip: string): string {
  return ip.replace(/%.*$/, "");
}

function v4Reason(value: bigint): string | null {
  const found = V4_RANGES.find((r) => contains(r, value));
  return found ? describe(found) : null;
}

function contains(r: Range, value: bigint): boolean {
  const shift = BigInt(r.width - r.bits);
  return value >> shift === r.base >> shift;
}

function describe(r: Range): string {
  return `${r.label} (${r.cidr})`;
}

function range(width: 32 | 128, cidr: string, label: string): Range {
  const [network = "", bits = ""] = cidr.split("/");
  const base = width === 32 ? ipv4Number(network) : v6Value(network);
  return { cidr, label, width, bits: Number(bits), base };
}

function ranges(width: 32 | 128, list: [cidr: string, label: string][]): Range[] {
  return list.map(([cidr, label]) => range(width, cidr, label));
}

function low32(value: bigint): bigint {
  return value & 0xffffffffn;
}

// Only called on what isIP accepted as IPv6, so the parse cannot fail.
function v6Value(text: string): bigint {
  return ipv6Number(text) ?? 0n;
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join(".");
}
