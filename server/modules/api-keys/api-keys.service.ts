/**
 * API keys: created with a name (the key is returned once; only its SHA-256 is stored),
 * listed by name and first characters, revoked. A key authenticates a merchant's backend.
 *
 * Authentication runs on every screening and every collect, and anyone can send a made-up
 * key, so it never costs a query for one: every live key is held in memory (live-keys.ts),
 * and a key that is not there is refused unless its tag proves we minted it (key-tag.ts:
 * then it may be a key another instance created a moment ago, and one query looks for it).
 * Creating or revoking a key announces it on the change feed; every instance reloads that
 * account's keys (LISTEN/NOTIFY on PostgreSQL: milliseconds), and the whole table at least
 * every five minutes in case a notice was lost. Each
 * key has a request budget per minute (per instance), spent by `spend` only after the
 * caller's other checks pass; past it, 429 with Retry-After. "Last used" is written at most
 * once a minute per key.
 */
import {
  API_KEY_PREFIX,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyView,
} from "../../../shared/schemas/api-keys.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import { sha256Hex } from "../../lib/tokens.ts";
import type { ApiKeysRepository } from "./api-keys.repository.ts";
import type { KeyTags } from "./key-tag.ts";
import { createLiveKeys } from "./live-keys.ts";

const START_LENGTH = 12;
const TOUCH_EVERY_MS = 60_000;
const WINDOW_MS = 60_000;

type Deps = {
  repo: ApiKeysRepository;
  changes: ChangeFeed;
  now: () => Date;
  /** Mints and checks the tag that lets a key be refused without a query. */
  tags: KeyTags;
  /** Requests per key per minute, per instance. */
  ratePerMinute: number;
  log: { warn(obj: object, msg: string): void };
  /** After a key is created: the screening path gets ready before the first call. */
  onCreated?: () => void;
};

export function createApiKeysService({
  repo,
  changes,
  now,
  tags,
  ratePerMinute,
  log,
  onCreated,
}: Deps) {
  const live = createLiveKeys({ repo, changes, now, tags, log });
  const touched = new Map<string, number>();
  const windows = new Map<string, { start: number; count: number }>();

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

  /** The caller a key stands for, without spending its budget; null: unknown or revoked. */
  async function identify(key: string): Promise<Caller | null> {
    if (key.length > 200) return null;
    const at = now().getTime();
    const known = await live.find(key, sha256Hex(key));
    if (!known) return null;
    if (at - (touched.get(known.id) ?? 0) >= TOUCH_EVERY_MS) {
      touched.set(known.id, at);
      repo.touch(known.id, new Date(at)).catch((error) => {
        log.warn({ err: error }, "could not record an API key's last use");
      });
    }
    return { accountId: known.accountId, via: "apiKey", key: { id: known.id, kind: known.kind } };
  }

  return {
    async create(accountId: string, input: Required<ApiKeyCreate>): Promise<ApiKeyCreated> {
      const key = tags.mint(API_KEY_PREFIX[input.kind]);
      const row = await repo.create({
        accountId,
        name: input.name,
        kind: input.kind,
        start: key.slice(0, START_LENGTH),
        keyHash: sha256Hex(key),
      });
      changes.publish({ topic: TOPICS.apiKeys, accountId });
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
      // Gone here before the answer (the reload the change feed starts takes a query), and
      // on the other instances when they hear of it.
      live.forget(accountId, id);
      changes.publish({ topic: TOPICS.apiKeys, accountId });
    },

    identify,

    /** Spends one request of the key's budget; throws 429 past it. */
    spend(keyId: string): void {
      spend(keyId, now().getTime());
    },

    /**
     * The caller a bearer key stands for, or null when it is unknown or revoked. A secret key
     * spends one request of its budget (429 past it). A publishable key spends nothing here:
     * it is public, anyone can send it as a bearer to any route, and only the collector spends
     * its budget, once the Origin and the browser's own budget have passed (decision 013).
     */
    async authenticate(key: string): Promise<Caller | null> {
      const caller = await identify(key);
      if (caller?.key?.kind === "secret") spend(caller.key.id, now().getTime());
      return caller;
    },

    /** Loads the live keys now, so the first request does not wait for them. */
    warm: live.warm,
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/** Whether a bearer token is an API key (and not a console session token). */
export function isApiKey(token: string): boolean {
  return Object.values(API_KEY_PREFIX).some((prefix) => token.startsWith(prefix));
}
