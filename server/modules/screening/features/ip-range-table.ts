import { closeSync, openSync, readSync } from "node:fs";
import { AsnNames } from "./asn-names.ts";

/**
 * Sorted, non-overlapping address ranges of @ip-location-db/asn's "-num" CSVs
 * (`start,end,asn,organisation` with decimal addresses). IPv4 keys are one 32-bit word, IPv6
 * keys four. Rows live in typed arrays and each organisation is decoded once per ASN: 500k
 * rows as JS objects would cost several times the memory (DATA.md has the figures).
 */
export type AsnTable = { find(key: ArrayLike<number>): { asn: number; org: string | null } | null };

const NEWLINE = 10;
const COMMA = 44;
const CHUNK = 1 << 20;

// Decimal digits → `width` big-endian 32-bit words, without BigInt or string allocation.
function parseDecimal(
  bytes: Buffer,
  from: number,
  to: number,
  target: Uint32Array,
  at: number,
  width: number,
): void {
  target.fill(0, at, at + width);
  for (let i = from; i < to; i++) {
    let carry = (bytes[i] ?? 48) - 48;
    for (let w = at + width - 1; w >= at; w--) {
      const value = (target[w] ?? 0) * 10 + carry;
      target[w] = value >>> 0;
      carry = Math.floor(value / 0x1_0000_0000);
    }
  }
}

/** Reads one "-num" CSV in 1 MB chunks (the files are 11–21 MB) into an AsnTable. */
export function loadAsnTable(file: string, width: 1 | 4): AsnTable {
  const { starts, ends, asns, orgs, count } = readRows(file, width);
  return {
    find(key) {
      const row = lastAtOrBelow(starts, width, count, key);
      if (row === -1 || compare(ends, width, row, key) < 0) return null;
      const asn = asns[row] ?? 0;
      return { asn, org: orgs(asn) };
    },
  };
}

// Separate from loadAsnTable so that its closure cannot keep the parse state (the name
// builder and its slack) alive.
function readRows(file: string, width: 1 | 4) {
  // A counting pass first, so each column is allocated once at its final size.
  const rows = readLines(file, () => true);
  const starts = new Uint32Array(rows * width);
  const ends = new Uint32Array(rows * width);
  const asns = new Uint32Array(rows);
  const names = new AsnNames();
  const parseLine = (bytes: Buffer, from: number, to: number, row: number) => {
    const c1 = bytes.indexOf(COMMA, from);
    const c2 = bytes.indexOf(COMMA, c1 + 1);
    let c3 = bytes.indexOf(COMMA, c2 + 1);
    if (c1 === -1 || c2 === -1 || c2 >= to) return false;
    if (c3 === -1 || c3 > to) c3 = to;
    parseDecimal(bytes, from, c1, starts, row * width, width);
    parseDecimal(bytes, c1 + 1, c2, ends, row * width, width);
    parseDecimal(bytes, c2 + 1, c3, asns, row, 1);
    const asn = asns[row] ?? 0;
    names.add(asn, bytes, Math.min(c3 + 1, to), to);
    return true;
  };
  const count = readLines(file, parseLine);
  return { starts, ends, asns, orgs: names.finish(), count };
}

function readLines(
  file: string,
  parseLine: (b: Buffer, from: number, to: number, row: number) => boolean,
): number {
  const fd = openSync(file, "r");
  let buffer = Buffer.alloc(CHUNK);
  let kept = 0;
  let rows = 0;
  try {
    for (;;) {
      if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(CHUNK)]); // a line longer than a chunk
      const read = readSync(fd, buffer, kept, buffer.length - kept, null);
      const filled = kept + read;
      let from = 0;
      for (
        let nl = buffer.indexOf(NEWLINE, from);
        nl !== -1 && nl < filled;
        nl = buffer.indexOf(NEWLINE, from)
      ) {
        if (parseLine(buffer, from, nl, rows)) rows++;
        from = nl + 1;
      }
      if (read === 0) {
        if (from < filled && parseLine(buffer, from, filled, rows)) rows++;
        return rows;
      }
      buffer.copy(buffer, 0, from, filled);
      kept = filled - from;
    }
  } finally {
    closeSync(fd);
  }
}

// Lexicographic comparison of row `row` with `key`: <0, 0 or >0.
function compare(table: Uint32Array, width: number, row: number, key: ArrayLike<number>): number {
  for (let w = 0; w < width; w++) {
    const diff = (table[row * width + w] ?? 0) - (key[w] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

// The last range starting at or below the key: the only one that can hold it.
function lastAtOrBelow(
  starts: Uint32Array,
  width: number,
  count: number,
  key: ArrayLike<number>,
): number {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (compare(starts, width, mid, key) <= 0) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}
