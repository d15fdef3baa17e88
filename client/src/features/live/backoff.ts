/**
 * When the live stream reconnects after its n-th failure in a row: 1 s, doubling, at most
 * 30 s, each spread by ±20 % so that pages cut off together (a server restart) do not all
 * come back in the same instant.
 */
export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;

export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures));
  return Math.round(Math.min(MAX_RETRY_MS, base * (0.8 + 0.4 * random())));
}
