/**
 * The collector's per-browser budget: one-minute windows of collects per bucket (a key and
 * a browser's IPv4 address or IPv6 /64), at most `maxBuckets` held. Past that the least
 * recently used window is dropped, one per new bucket: someone who opens windows from many
 * networks pushes out windows nobody is using, not every running one at once (a full map was
 * wiped, resetting every real browser's budget).
 */
export type BrowserWindows = ReturnType<typeof createBrowserWindows>;

export function createBrowserWindows({
  limit,
  maxBuckets,
  windowMs = 60_000,
}: {
  limit: number;
  maxBuckets: number;
  windowMs?: number;
}) {
  // A Map iterates in insertion order: re-inserting on every use keeps the least recently
  // used window first.
  const windows = new Map<string, { start: number; count: number }>();

  return {
    /** Counts one collect; past the limit, the seconds until its window ends (else null). */
    hit(bucket: string, at: number): number | null {
      let window = windows.get(bucket);
      windows.delete(bucket);
      if (!window || at - window.start >= windowMs) {
        while (windows.size >= maxBuckets) windows.delete(windows.keys().next().value as string);
        window = { start: at, count: 0 };
      }
      windows.set(bucket, window);
      window.count += 1;
      if (window.count <= limit) return null;
      return Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
    },

    /** Windows held (bounded by maxBuckets). */
    size: () => windows.size,
  };
}
