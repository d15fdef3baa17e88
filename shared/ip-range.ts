/**
 * How wide an allow-list range may be: one entry must never allow everyone. An IPv4 range
 * at most a /16 (65,536 addresses), an IPv6 one at most a /32 (one provider's allocation).
 * IPv4 also lives inside IPv6 as ::ffff:0:0/96 (IPv4-mapped; Node's BlockList matches an
 * IPv4 address against such ranges), so an IPv6 range that holds that block holds all of
 * IPv4, and one inside it is an IPv4 range 96 bits further on. Pure: the console's form
 * and the server use it, and the engine ignores an entry it refuses (stored before the limit).
 */

import { ipv6Number } from "./ip-number.ts";

export const MIN_IPV4_PREFIX = 16;
export const MIN_IPV6_PREFIX = 32;
const MAPPED_PREFIX = 96;
/** ::ffff:0:0, the IPv4-mapped block's first address, as a 128-bit number. */
const MAPPED = 0xffffn << 32n;

/** The top `bits` bits of a 128-bit number. */
const top = (value: bigint, bits: number) => value >> BigInt(128 - bits);

/**
 * Why an IP range is too wide to allow-list, or null when it is narrow enough (a single
 * address always is). `value` is an address or address/bits already checked as such.
 */
export function rangeTooWide(value: string): string | null {
  const [address = "", rawBits] = value.split("/");
  if (rawBits === undefined) return null;
  const bits = Number(rawBits);
  if (!address.includes(":")) {
    return bits < MIN_IPV4_PREFIX
      ? `must not be wider than /${MIN_IPV4_PREFIX} for IPv4 (one entry would allow more than 65,536 addresses)`
      : null;
  }
  if (bits < MIN_IPV6_PREFIX) {
    return `must not be wider than /${MIN_IPV6_PREFIX} for IPv6 (one entry would allow too many addresses)`;
  }
  const number = ipv6Number(address);
  if (number === null) return null;
  const holdsAllOfIpv4 = bits <= MAPPED_PREFIX && top(number, bits) === top(MAPPED, bits);
  const mappedWide =
    bits > MAPPED_PREFIX &&
    bits < MAPPED_PREFIX + MIN_IPV4_PREFIX &&
    top(number, MAPPED_PREFIX) === top(MAPPED, MAPPED_PREFIX);
  if (holdsAllOfIpv4 || mappedWide) {
    return `holds IPv4-mapped addresses (::ffff:0:0/96): must not be wider than /${MAPPED_PREFIX + MIN_IPV4_PREFIX} there (an IPv4 /${MIN_IPV4_PREFIX})`;
  }
  return null;
}
