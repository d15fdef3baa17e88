import { isIP } from "node:net";

/** A parsed address: IPv4 as an unsigned 32-bit number, IPv6 as eight 16-bit groups. */
export type ParsedIp = { version: 4; value: number } | { version: 6; groups: number[] };

function parseIPv4(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split(".").map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function groupsOf(part: string): number[] {
  if (part === "") return [];
  const out: number[] = [];
  for (const piece of part.split(":")) {
    if (piece.includes(".")) {
      // An embedded dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills the last two groups.
      const v4 = parseIPv4(piece);
      out.push(v4 >>> 16, v4 & 0xffff);
    } else {
      out.push(Number.parseInt(piece, 16));
    }
  }
  return out;
}

/**
 * Parses an address that node:net accepts, or returns null. IPv4-mapped IPv6 (::ffff:a.b.c.d)
 * comes back as IPv4, because it is the same host whichever way the proxy spelled it.
 */
export function parseIp(input: string): ParsedIp | null {
  // A zone index (fe80::1%eth0) names a local interface, not part of the address.
  const text = input.trim().replace(/%.*$/, "");
  const version = isIP(text);
  if (version === 4) return { version: 4, value: parseIPv4(text) };
  if (version !== 6) return null;
  const [head = "", tail] = text.split("::");
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return { version: 4, value: (((groups[6] ?? 0) << 16) | (groups[7] ?? 0)) >>> 0 };
  return { version: 6, groups };
}

/** Dotted-quad text of an unsigned 32-bit IPv4 number. */
export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join(".");
}

/** RFC 5952 text of eight groups: lowercase, no leading zeros, the longest zero run as "::". */
export function formatIPv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1; // a single zero group is never compressed (RFC 5952 4.2.2)
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  const head = hex.slice(0, bestStart).join(":");
  const tail = hex.slice(bestStart + bestLength).join(":");
  return `${head}::${tail}`;
}

/** The first `bits` bits of the groups, the rest zeroed (bits is a multiple of 16). */
export function ipv6Prefix(groups: number[], bits: number): number[] {
  return groups.map((g, i) => (i < bits / 16 ? g : 0));
}
