/**
 * Remembers a pure function's answers by its string argument, up to `max` entries (then
 * starts over: cheaper than an LRU, and repeated identities cluster in time). For feature
 * lookups that cost tens of microseconds (a user-agent regex, an IP range search) and that
 * a backtest asks again for every event from the same browser or address, and for Stripe
 * clients per key (stripe-client.ts).
 */
export function memo<T>(fn: (key: string) => T, max = 50_000): (key: string) => T {
  let cache = new Map<string, T>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as T;
    const value = fn(key);
    if (cache.size >= max) cache = new Map();
    cache.set(key, value);
    return value;
  };
}
