/**
 * The chart's x axis for Test on history: one slot per UTC day of the tried window, so a
 * day's bar sits at its date and days without a change leave a gap (with only the days that
 * had changes, one busy day was one bar across the whole chart).
 */
const DAY_MS = 86_400_000;

export function dayAxis(from: string, to: string) {
  const first = Date.parse(from.slice(0, 10));
  const slots = Math.round((Date.parse(to.slice(0, 10)) - first) / DAY_MS) + 1;
  return {
    slots,
    /** The slot of a day ("2026-11-24"), counted from the window's first day. */
    slot: (day: string) => Math.round((Date.parse(day) - first) / DAY_MS),
    first: from.slice(0, 10),
    last: to.slice(0, 10),
  };
}
