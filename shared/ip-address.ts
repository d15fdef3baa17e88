/**
 * One written form per address, so what is stored, counted, matched, shown and searched is the
 * same text. A backend that passes Node's `req.socket.remoteAddress` on a dual-stack server
 * sends an IPv4 client as IPv4-mapped IPv6 (`::ffff:127.0.0.1`, also `::ffff:7f00:1`): that is
 * the IPv4 address, written as IPv4. Other IPv6 addresses take RFC 5952's form (lowercase, no
 * leading zeros, the longest run of zero groups as `::`).
 */
import { ipv6Number } from "./ip-number.ts";

const MAPPED_HIGH = 0xffffn; // ::ffff:0:0/96, the upper 96 bits of every IPv4-mapped address

/** The canonical text of an address already validated as IPv4 or IPv6; anything else as is. */
export function canonicalIp(address: string): string {
  if (!address.includes(":")) return address;
  const value = ipv6Number(address);
  if (value === null) return address;
  if (value >> 32n === MAPPED_HIGH) {
    return [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join(".");
  }
  return rfc5952(value);
}

/** A 128-bit address as RFC 5952 text. */
function rfc5952(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) =>
    Number((value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  // The longest run of two or more zero groups (the first of equals) becomes "::".
  let start = -1;
  let length = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > length) [start, length] = [i, j - i];
    i = j > i ? j : i + 1;
  }
  const hex = (part: number[]) => part.map((g) => g.toString(16)).join(":");
  if (start < 0) return hex(groups);
  return `${hex(groups.slice(0, start))}::${hex(groups.slice(start + length))}`;
}

/**
 * An address or CIDR range in its canonical form: a range inside ::ffff:0:0/96 becomes the
 * IPv4 range it holds (::ffff:203.0.113.0/120 is 203.0.113.0/24). Only for validated values;
 * a mapped range wider than the block stays as written (the allow list refuses it).
 */
export function canonicalIpOrCidr(value: string): string {
  const [address = "", bits] = value.split("/");
  const ip = canonicalIp(address);
  if (bits === undefined) return ip;
  const mapped = address.includes(":") && !ip.includes(":");
  if (!mapped) return `${ip}/${bits}`;
  return Number(bits) >= 96 ? `${ip}/${Number(bits) - 96}` : value;
}
