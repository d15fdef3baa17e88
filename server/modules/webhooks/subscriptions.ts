/**
 * Which decision events each account's endpoints subscribe to, in memory: a screening answered
 * block or review emits an event on the hot path, and most accounts have no endpoint that
 * wants it, so asking the database every time cost a query per screening. An account's entry
 * is dropped on every instance when its endpoints change (the change feed), and reloaded
 * after a minute in case a notification was lost; at most 10,000 accounts are kept.
 */
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";

const MAX_AGE_MS = 60_000;
const MAX_ACCOUNTS = 10_000;

export function createSubscriptions(
  /** The event types any of the account's endpoints subscribe to. */
  load: (accountId: string) => Promise<readonly string[]>,
  changes: ChangeFeed,
  now: () => Date,
) {
  const cache = new Map<string, { types: ReadonlySet<string>; loadedAt: number }>();
  let generation = 0;

  const drop = (accountId: string) => {
    generation += 1;
    if (accountId === "*") cache.clear();
    else cache.delete(accountId);
  };
  changes.subscribe(({ topic, accountId }) => {
    if (topic === TOPICS.webhooks || topic === "*") drop(accountId);
  });

  return {
    /** Whether any endpoint of the account wants events of this type. */
    async wants(accountId: string, type: string): Promise<boolean> {
      const at = now().getTime();
      const cached = cache.get(accountId);
      if (cached && at - cached.loadedAt < MAX_AGE_MS) return cached.types.has(type);
      const started = generation;
      const types = new Set(await load(accountId));
      // A change announced while loading may not be in what was read: keep nothing then.
      if (generation === started) {
        if (cache.size >= MAX_ACCOUNTS) cache.clear();
        cache.set(accountId, { types, loadedAt: at });
      }
      return types.has(type);
    },

    /** Tells every instance that the account's endpoints changed (this one at once). */
    changed(accountId: string): void {
      drop(accountId);
      changes.publish({ topic: TOPICS.webhooks, accountId });
    },
  };
}
