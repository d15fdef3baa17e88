/**
 * What a webhook delivery needs that does not change per event: the endpoint's account and
 * its decrypted signing secret, kept in memory per endpoint id so a delivery costs no lookup
 * and no decryption.
 *
 * Only endpoints that exist are kept: ids sent by anyone who guesses at the URL are looked up
 * every time and never fill the map, which is bounded anyway. A copy is dropped when the
 * account's settings change (the change feed: in this process at once, in other instances
 * through PostgreSQL's NOTIFY), and a copy older than `maxAgeMs` is reloaded in case a change
 * was lost. A load that overlaps a change is not kept, as in the policy cache.
 */
import type { ChangeFeed } from "../../../db/change-feed.ts";
import { TOPICS } from "../../../db/change-topics.ts";

export type Endpoint = { accountId: string; webhookSecret: string | null };

type Deps = {
  /** The endpoint's account and secret from the database; null for an unknown endpoint. */
  lookup(endpointId: string): Promise<Endpoint | null>;
  changes: ChangeFeed;
  now: () => Date;
  maxAgeMs?: number;
  maxEntries?: number;
};

export function createEndpointCache({
  lookup,
  changes,
  now,
  maxAgeMs = 60_000,
  maxEntries = 10_000,
}: Deps) {
  const cache = new Map<string, { endpoint: Endpoint; loadedAt: number }>();
  let generation = 0;

  changes.subscribe(({ topic, accountId }) => {
    if (topic !== TOPICS.settings && topic !== "*") return;
    generation += 1;
    if (accountId === "*") {
      cache.clear();
      return;
    }
    for (const [endpointId, entry] of cache) {
      if (entry.endpoint.accountId === accountId) cache.delete(endpointId);
    }
  });

  return {
    async get(endpointId: string): Promise<Endpoint | null> {
      const at = now().getTime();
      const cached = cache.get(endpointId);
      if (cached && at - cached.loadedAt < maxAgeMs) return cached.endpoint;
      const started = generation;
      const endpoint = await lookup(endpointId);
      if (!endpoint) {
        cache.delete(endpointId);
        return null;
      }
      if (generation === started) {
        cache.delete(endpointId);
        // A Map iterates in insertion order: the first key is the oldest entry.
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
        cache.set(endpointId, { endpoint, loadedAt: at });
      }
      return endpoint;
    },

    /** How many endpoints are held (for tests and the metrics). */
    size: () => cache.size,
  };
}

export type EndpointCache = ReturnType<typeof createEndpointCache>;
