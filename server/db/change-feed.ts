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

/**
 * Changes shared through PostgreSQL's LISTEN/NOTIFY on one dedicated connection. If that
 * connection drops, it reconnects and tells subscribers to forget everything, since
 * notifications sent meanwhile are lost.
 */
export function createPostgresChangeFeed(url: string, log: Log): ChangeFeed {
  const local = localFeed();
  const instance = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      const [from, topic, accountId] = (message.payload ?? "").split("|");
      if (from !== instance && topic && accountId) local.deliver({ topic, accountId });
    });
    next.on("error", (error) => {
      log.warn({ err: error }, "change feed connection lost; reconnecting");
      if (client === next) client = null;
      void next.end().catch(() => {});
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      log.warn({ err: error }, "change feed could not listen; retrying");
      void next.end().catch(() => {});
      schedule();
      return;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    local.deliver({ topic: "*", accountId: "*" });
  }

  function schedule(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
    retry.unref();
  }

  const ready = connect();

  return {
    publish(change) {
      local.deliver(change);
      const payload = `${instance}|${change.topic}|${change.accountId}`;
      client?.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]).catch((error) => {
        log.warn({ err: error }, "change not sent to other instances");
      });
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
