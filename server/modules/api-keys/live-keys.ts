/**
 * Every live API key, in memory, by SHA-256: the whole table, not a cache, so nothing can
 * evict a key and a made-up one costs no query (decision 013).
 *
 * It is kept true by the change feed: a key created or revoked anywhere reloads that
 * account's keys here, and a (re)connected feed, which may have missed notices, reloads them
 * all. A notice can still be lost (an instance that dies before sending it), so the table is
 * read again once it is KEYS_MAX_AGE_MS old: a missed revocation lasts at most that long.
 *
 * Reads overlap: a reload or a lookup may return after a later reload has started (a
 * revocation's among them). Every reload takes the next number, and what a read returns is
 * kept only if nothing later started for its accounts, so a revoked key is never put back.
 */
import { API_KEY_PREFIX, type ApiKeyKind } from "../../../shared/schemas/api-keys.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import type { ApiKeysRepository } from "./api-keys.repository.ts";
import type { KeyTags } from "./key-tag.ts";

/** How long the table read from the database is trusted without a change notice. */
export const KEYS_MAX_AGE_MS = 5 * 60_000;
/** Tagged keys looked up and not found (revoked ones): remembered, bounded, for a while. */
const MISSING_MAX = 10_000;
const MISSING_MS = 60_000;

export type Known = { id: string; accountId: string; kind: ApiKeyKind };

type Deps = {
  repo: Pick<ApiKeysRepository, "listLive" | "findLiveByHash">;
  changes: ChangeFeed;
  now: () => Date;
  tags: KeyTags;
  log: { warn(obj: object, msg: string): void };
  maxAgeMs?: number;
};

export function createLiveKeys({
  repo,
  changes,
  now,
  tags,
  log,
  maxAgeMs = KEYS_MAX_AGE_MS,
}: Deps) {
  const live = new Map<string, Known>();
  const missing = new Map<string, number>();
  /** The number the latest read took: of all keys, and of one account's. */
  let sequence = 0;
  let latestAll = 0;
  const latestFor = new Map<string, number>();
  /** The full read in use (or under way), and when it started. */
  let loaded: Promise<void> | null = null;
  let loadedAt = 0;

  const newerFor = (accountId: string, than: number) =>
    latestAll > than || (latestFor.get(accountId) ?? 0) > than;

  async function reloadAll(): Promise<void> {
    const mine = ++sequence;
    latestAll = mine;
    const rows = await repo.listLive();
    if (latestAll !== mine) return;
    const newer = (accountId: string) => (latestFor.get(accountId) ?? 0) > mine;
    for (const [hash, known] of live) if (!newer(known.accountId)) live.delete(hash);
    for (const { keyHash, ...known } of rows) if (!newer(known.accountId)) live.set(keyHash, known);
    for (const [accountId, seq] of latestFor) if (seq <= mine) latestFor.delete(accountId);
    missing.clear();
  }

  async function reloadAccount(accountId: string): Promise<void> {
    const mine = ++sequence;
    latestFor.set(accountId, mine);
    const rows = await repo.listLive(accountId);
    if (latestAll > mine || latestFor.get(accountId) !== mine) return;
    for (const [hash, known] of live) if (known.accountId === accountId) live.delete(hash);
    for (const { keyHash, ...known } of rows) live.set(keyHash, known);
    missing.clear();
  }

  /** The table, read again when it is older than `maxAgeMs` or when `force`d. */
  function ensureLoaded(force = false): Promise<void> {
    const at = now().getTime();
    if (force || loaded === null || at - loadedAt >= maxAgeMs) {
      loadedAt = at;
      const attempt: Promise<void> = reloadAll().catch((error) => {
        if (loaded === attempt) loaded = null;
        throw error;
      });
      loaded = attempt;
    }
    return loaded;
  }

  changes.subscribe(({ topic, accountId }) => {
    if ((topic !== TOPICS.apiKeys && topic !== "*") || !loaded) return;
    const done = accountId === "*" ? ensureLoaded(true) : reloadAccount(accountId);
    done.catch((error) => {
      log.warn({ err: error }, "could not reload API keys after a change; reloading all");
      loaded = null;
    });
  });

  return {
    /** The live key with this hash; null for a made-up, unknown or revoked key. */
    async find(key: string, keyHash: string): Promise<Known | null> {
      await ensureLoaded();
      const known = live.get(keyHash);
      if (known) return known;
      const kind = kindOf(key);
      if (!kind || !tags.verify(API_KEY_PREFIX[kind], key)) return null;
      const at = now().getTime();
      const seen = missing.get(keyHash);
      if (seen !== undefined && at - seen < MISSING_MS) return null;
      const asOf = sequence;
      const row = await repo.findLiveByHash(keyHash);
      if (row) {
        // A reload started since (a revocation's) knows better than this read.
        if (!newerFor(row.accountId, asOf)) live.set(keyHash, row);
        return row;
      }
      if (missing.size >= MISSING_MAX) missing.clear();
      missing.set(keyHash, at);
      return null;
    },

    /** Drops a key revoked here at once; reads started before now cannot bring it back. */
    forget(accountId: string, id: string): void {
      latestFor.set(accountId, ++sequence);
      for (const [hash, known] of live) if (known.id === id) live.delete(hash);
    },

    /** Loads the live keys now, so the first request does not wait for them. */
    warm: () => ensureLoaded(),
  };
}

function kindOf(key: string): ApiKeyKind | null {
  if (key.startsWith(API_KEY_PREFIX.secret)) return "secret";
  if (key.startsWith(API_KEY_PREFIX.publishable)) return "publishable";
  return null;
}
