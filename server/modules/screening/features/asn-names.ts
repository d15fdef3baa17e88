/**
 * Organisation names by ASN, packed into one byte buffer with sorted offsets: 90k names as
 * JS strings in a Map cost about 12 MB of heap, packed they cost about 3 MB.
 */
export class AsnNames {
  private readonly seen = new Set<number>();
  private entries: number[] = []; // asn, offset, length, asn, offset, length, ...
  private bytes = Buffer.alloc(1 << 20);
  private used = 0;

  /** Records the name bytes[from, to) for `asn` unless it already has one. */
  add(asn: number, bytes: Buffer, from: number, to: number): void {
    if (this.seen.has(asn)) return;
    this.seen.add(asn);
    while (this.used + (to - from) > this.bytes.length) {
      this.bytes = Buffer.concat([this.bytes, Buffer.alloc(this.bytes.length)]);
    }
    bytes.copy(this.bytes, this.used, from, to);
    this.entries.push(asn, this.used, to - from);
    this.used += to - from;
  }

  /** Freezes what was added into a lookup function. */
  finish(): (asn: number) => string | null {
    const count = this.entries.length / 3;
    const order = Array.from({ length: count }, (_, i) => i);
    const at = (i: number, field: number) => this.entries[i * 3 + field] ?? 0;
    order.sort((a, b) => at(a, 0) - at(b, 0));
    const asns = Uint32Array.from(order, (i) => at(i, 0));
    const offsets = Uint32Array.from(order, (i) => at(i, 1));
    const lengths = Uint32Array.from(order, (i) => at(i, 2));
    const bytes = Buffer.from(this.bytes.subarray(0, this.used)); // a copy: drops the slack
    return lookup(asns, offsets, lengths, bytes);
  }
}

// Outside the class so the returned closure cannot keep the builder (and its slack) alive.
function lookup(asns: Uint32Array, offsets: Uint32Array, lengths: Uint32Array, bytes: Buffer) {
  return (asn: number): string | null => {
    let low = 0;
    let high = asns.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = asns[mid] ?? 0;
      if (value === asn) {
        const from = offsets[mid] ?? 0;
        return decodeOrg(bytes.toString("utf8", from, from + (lengths[mid] ?? 0)));
      }
      if (value < asn) low = mid + 1;
      else high = mid - 1;
    }
    return null;
  };
}

// CSV quoting: "Cloudflare, Inc." is stored with its quotes; "" stands for one quote.
function decodeOrg(text: string): string | null {
  const org = text.replace(/\r$/, "");
  if (org === "") return null;
  return org.startsWith('"') ? org.slice(1, -1).replaceAll('""', '"') : org;
}
