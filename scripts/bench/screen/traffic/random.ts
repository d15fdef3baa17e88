/** Seeded picks for the screening traffic (`r` is a seeded random source, 0..1). */

export const int = (r: () => number, lo: number, hi: number) =>
  lo + Math.floor(r() * (hi - lo + 1));
export const hex = (r: () => number, digits: number) =>
  Math.floor(r() * 16 ** digits)
    .toString(16)
    .padStart(digits, "0");
export const pick = <T>(r: () => number, list: readonly T[]): T =>
  list[Math.floor(r() * list.length)] as T;
export function weighted<T>(r: () => number, list: readonly [T, number][]): T {
  const total = list.reduce((sum, [, w]) => sum + w, 0);
  let x = r() * total;
  for (const [item, w] of list) {
    x -= w;
    if (x < 0) return item;
  }
  return (list.at(-1) as [T, number])[0];
}
/** Skewed pick: a few members are very active, most are not (about Zipf-like). */
export const skewed = <T>(r: () => number, list: readonly T[]): T =>
  list[Math.floor(r() ** 2.2 * list.length)] as T;
