/**
 * IP addresses as numbers, for range arithmetic: an IPv4 address as 32 bits, an IPv6 one as
 * 128 (a trailing dotted quad fills its last two groups). Pure, and shared by the allow list's
 * range limits (shared/ip-range.ts) and the list of non-public addresses (server/lib).
 */

/** A dotted-quad IPv4 address (already validated) as a 32-bit number. */
export function ipv4Number(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address as a 128-bit number; null when it is not one. */
export function ipv6Number(address: string): bigint | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Number(dotted[0]);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array<string>(missing).fill("0"), ...tail];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}
