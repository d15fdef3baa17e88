/**
 * API keys: created with a name (the key is returned once; only its SHA-256 is stored),
 * listed by name and first characters, revoked. A key authenticates a merchant's backend.
 *
 * Authentication runs on every screening, so a key's lookup is kept in memory; revoking a
 * key announces it on the change feed, which drops the account's cached keys here and in
 * every other instance. Each key has a request budget per minute (per instance); past it,
 * 429 with Retry-After. "Last used" is written at most once a minute per key.
 */
import {
  API_KEY_PREFIX,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyKind,
  type ApiKeyView,
} from "../../../shared/schemas/api-keys.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import { randomToken, sha256Hex } from "../../lib/tokens.ts";
import type { ApiKeysRepository } from "./api-keys.repository.ts";

export const API_KEYS_TOPIC = "api-keys";
const START_LENGTH = 12;
const TOUCH_EVERY_MS = 60_000;
const CACHE_MS = 60_000;
const WINDOW_MS = 60_000;

type Deps = {
  repo: ApiKeysRepository;
  changes: ChangeFeed;
  now: () => Date;
  /** Requests per key per minute, per instance. */
  ratePerMinute: number;
  log: { warn(obj: object, msg: string): void };
  /** After a key is created: the screening path gets ready before the first call. */
  onCreated?: () => void;
};

type Known =
  | { id: string; accountId: string; kind: ApiKeyKind; at: number }
  | { id: null; at: number };

export function createApiKeysService({ repo, changes, now, ratePerMinute, log, onCreated }: Deps) {
  const byHash = new Map<string, Known>();
  const touched = new Map<string, number>();
  const windows = new Map<string, { start: number; count: number }>();

  changes.subscribe(({ topic, accountId }) => {
    if (topic !== API_KEYS_TOPIC && topic !== "*") return;
    for (const [hash, known] of byHash) {
      if (accountId === "*" || known.id === null || known.accountId === accountId)
        byHash.delete(hash);
    }
  });

  async function lookup(keyHash: string, at: number): Promise<Known> {
    const cached = byHash.get(keyHash);
    if (cached && at - cached.at < CACHE_MS) return cached;
    const row = await repo.findLiveByHash(keyHash);
    const known: Known = row ? { ...row, at } : { id: null, at };
    // Bounded: unknown keys are cached too (a flood of made-up keys must not grow it forever).
    if (byHash.size > 10_000) byHash.clear();
    byHash.set(keyHash, known);
    return known;
  }

  function spend(keyId: string, at: number): void {
    const window = windows.get(keyId);
    if (!window || at - window.start >= WINDOW_MS) {
      windows.set(keyId, { start: at, count: 1 });
      return;
    }
    window.count += 1;
    if (window.count > ratePerMinute) {
      throw new AppError("TOO_MANY_REQUESTS", "Too many requests for this API key. Slow down.", {
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000)),
      });
    }
  }

  return {
    async create(accountId: string, input: Required<ApiKeyCreate>): Promise<ApiKeyCreated> {
      const key = `${API_KEY_PREFIX[input.kind]}${randomToken(24)}`;
      const row = await repo.create({
        accountId,
        name: input.name,
        kind: input.kind,
        start: key.slice(0, START_LENGTH),
        keyHash: sha256Hex(key),
      });
      onCreated?.();
      return {
        id: row.id,
        name: row.name,
        kind: row.kind,
        key,
        created_at: row.createdAt.toISOString(),
      };
    },

    /** Whether any merchant holds a live key, so Warden is used for screening. */
    anyLive: () => repo.anyLive(),

    async list(accountId: string): Promise<ApiKeyView[]> {
      return (await repo.list(accountId)).map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.kind,
        start: row.start,
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt?.toISOString() ?? null,
      }));
    },

    async revoke(accountId: string, id: string): Promise<void> {
      if (!(await repo.revoke(accountId, id, now()))) {
        throw new AppError("NOT_FOUND", "No such API key.");
      }
      changes.publish({ topic: API_KEYS_TOPIC, accountId });
    },

    /**
     * The caller a bearer key stands for, or null when it is unknown or revoked. Throws 429
     * past the key's budget.
     */
    async authenticate(key: string): Promise<Caller | null> {
      if (key.length > 200) return null;
      const at = now().getTime();
      const known = await lookup(sha256Hex(key), at);
      if (known.id === null) return null;
      spend(known.id, at);
      if (at - (touched.get(known.id) ?? 0) >= TOUCH_EVERY_MS) {
        touched.set(known.id, at);
        repo.touch(known.id, new Date(at)).catch((error) => {
          log.warn({ err: error }, "could not record an API key's last use");
        });
      }
      return { accountId: known.accountId, via: "apiKey", key: { id: known.id, kind: known.kind } };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/** Whether a bearer token is an API key (and not a console session token). */
export function isApiKey(token: string): boolean {
  return Object.values(API_KEY_PREFIX).some((prefix) => token.startsWith(prefix));
}
