/**
 * Tells every server instance that an account's settings changed, so in-memory caches (the
 * policy) drop their copy. In one process a change reaches its subscribers at once; on
 * PostgreSQL it is also sent with NOTIFY and heard with LISTEN by the other instances. The
 * embedded database serves one process only, so it needs nothing more.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export type Change = { topic: string; accountId: string };
/** `accountId: "*"` means "everything": the feed may have missed changes (a reconnect). */
export type ChangeHandler = (change: Change) => void;

export type ChangeFeed = {
  publish(change: Change): void;
  subscribe(handler: ChangeHandler): () => void;
  close(): Promise<void>;
};

const CHANNEL = "warden_changes";
/** The listening connection's name in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION = "warden-changes";

function localFeed(): ChangeFeed & { deliver(change: Change): void } {
  const handlers = new Set<ChangeHandler>();
  const deliver = (change: Change) => {
    for (const handler of handlers) handler(change);
  };
  return {
    deliver,
    publish: deliver,
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}

/** Changes within this process only (the embedded database, tests). */
export function createLocalChangeFeed(): ChangeFeed {
  return localFeed();
}

type Log = { warn(obj: object, msg: string): void };

/** Retries after a lost connection: soon at first, then less often, never past the cap. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 10_000;
/** Changes waiting for the connection, deduplicated; past this many, the oldest is dropped. */
const PENDING_MAX = 10_000;

/**
 * Changes shared through PostgreSQL's LISTEN/NOTIFY on one dedicated connection. A lost
 * connection is logged and retried. Notifications sent meanwhile are lost to this instance,
 * so each (re)connect tells the subscribers to forget everything ("*"). Changes published
 * while it is down wait and are sent once it is back: the other instances would otherwise
 * never hear of them (a revoked key stayed usable there). A process that dies first loses
 * them; the caches' own maximum age bounds that.
 */
export function createPostgresChangeFeed(url: string, log: Log): ChangeFeed {
  const local = localFeed();
  const instance = randomUUID();
  const pending = new Set<string>();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: CHANGE_FEED_APPLICATION,
    });
    let gone = false;
    const lost = (error: unknown, what: string) => {
      if (gone) return;
      gone = true;
      if (client === next) client = null;
      void next.end().catch(() => {});
      if (closed) return;
      failures += 1;
      log.warn({ err: error, attempt: failures }, what);
      schedule();
    };
    next.on("notification", (message) => {
      const [from, topic, accountId] = (message.payload ?? "").split("|");
      if (from !== instance && topic && accountId) local.deliver({ topic, accountId });
    });
    next.on("error", (error) => lost(error, "change feed connection lost; reconnecting"));
    next.on("end", () =>
      lost(new Error("connection ended"), "change feed connection lost; reconnecting"),
    );
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      lost(error, "change feed could not listen; retrying");
      return;
    }
    if (closed || gone) {
      gone = true;
      await next.end().catch(() => {});
      return;
    }
    client = next;
    failures = 0;
    // Anything sent while we were not listening is lost: every cache starts over.
    local.deliver({ topic: "*", accountId: "*" });
    flush();
  }

  function schedule(): void {
    if (closed || retry) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
  }

  function flush(): void {
    const sender = client;
    if (!sender) return;
    for (const payload of pending) {
      pending.delete(payload);
      sender.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]).catch((error) => {
        // Kept for the next connection; the connection's own error event reconnects.
        keep(payload);
        log.warn({ err: error }, "change not sent to other instances yet; will retry");
        if (client && client !== sender) flush();
      });
    }
  }

  function keep(payload: string): void {
    pending.delete(payload);
    if (pending.size >= PENDING_MAX) pending.delete(pending.values().next().value as string);
    pending.add(payload);
  }

  const ready = connect();

  return {
    publish(change) {
      local.deliver(change);
      keep(`${instance}|${change.topic}|${change.accountId}`);
      flush();
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      clearTimeout(retry);
      await ready;
      await local.close();
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
