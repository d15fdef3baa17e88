/**
 * The simulator's only source of chance: mulberry32, seeded, with the few draws the traffic
 * needs. One seed gives the same traffic on every run, so a figure can be reproduced.
 */
export type Rng = {
  /** A number in [0, 1). */
  next(): number;
  chance(p: number): boolean;
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  weighted<T>(list: readonly (readonly [T, number])[]): T;
  hex(digits: number): string;
  /** A child generator for one part of the traffic, independent of how much others draw. */
  fork(label: string): Rng;
};

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const self: Rng = {
    next,
    chance: (p) => next() < p,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)] as (typeof list)[number],
    weighted(list) {
      const total = list.reduce((sum, [, w]) => sum + w, 0);
      let x = next() * total;
      for (const [item, w] of list) {
        x -= w;
        if (x < 0) return item;
      }
      return (list.at(-1) as (typeof list)[number])[0];
    },
    hex: (digits) =>
      Array.from({ length: digits }, () => Math.floor(next() * 16).toString(16)).join(""),
    fork: (label) => rng(hashSeed(seed, label)),
  };
  return self;
}

/** FNV-1a of the label, mixed with the seed. */
function hashSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
