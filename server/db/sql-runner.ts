/**
 * Plain SQL on the same database, for the few hot paths where Prisma's query engine costs
 * more than the query (screening: one count, one insert; a Stripe event: one read, one write).
 * node-postgres on PostgreSQL, PGlite's own query API when embedded; parameters are $1, $2,
 * ... in both.
 *
 * Times are UTC on both sides, whatever the host's time zone: Prisma stores DateTime as UTC
 * wall time in `timestamp(3)` columns, but node-postgres sends a Date as local time with its
 * offset (which a cast to `timestamp` drops) and both drivers read a `timestamp` back as local
 * time. On a server east of UTC a refund decided now was due hours later. So Dates go out as
 * ISO UTC text and `timestamp` values come back as UTC; PostgreSQL sessions run in UTC too
 * (`pgPoolConfig`), so `now()` stored in a `timestamp` column is UTC wall time as well.
 */
// Types only: a PostgreSQL server never loads PGlite (pgliteRunner imports it when asked).
import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";
// CommonJS without named exports Node can see: its default export.
import pgUtils from "pg/lib/utils.js";

const pgTypesBuiltin = pg.types;

const TIMESTAMP_OID = 1114;

/** A `timestamp` (without time zone) value, "2026-11-24 12:00:00.123", read as UTC. */
export function utcTimestamp(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

/** A parameter as it should travel: a Date (alone or in an array) as ISO UTC text. */
function utcParam(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.some((item) => item instanceof Date)) {
    return value.map(utcParam);
  }
  return value;
}

const utcParams = (params: unknown[]) =>
  params.some((value) => value instanceof Date || Array.isArray(value))
    ? params.map(utcParam)
    : params;

/** node-postgres's type parsers, with `timestamp` read as UTC. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? utcTimestamp
      : pgTypesBuiltin.getTypeParser(oid, format)) as typeof pgTypesBuiltin.getTypeParser,
};

/**
 * A pool's connection settings: its sessions in UTC, so that `now()` and `CURRENT_TIMESTAMP`
 * written to `timestamp` columns are UTC wall time whatever the server's own time zone;
 * `settings` adds more ("-c name=value ...").
 */
export function pgPoolConfig(url: string, settings = ""): pg.PoolConfig {
  return { connectionString: url, options: `-c TimeZone=UTC ${settings}`.trim() };
}

export type SqlQuery = <T = Record<string, unknown>>(
  text: string,
  params?: unknown[],
) => Promise<T[]>;

export type SqlRunner = {
  query: SqlQuery;
  /**
   * One statement, kept prepared under `name` on each PostgreSQL connection: parsed and planned
   * once per connection instead of on every call (most of PostgreSQL's work for a small write).
   * A name must always go with the same text. Embedded too (PGlite keeps them likewise).
   */
  prepared<T = Record<string, unknown>>(
    name: string,
    text: string,
    params: unknown[],
  ): Promise<T[]>;
  /** Runs `work` on one connection inside BEGIN … COMMIT (ROLLBACK when it throws). */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** Queries on `pool`; the pool's owner ends it (close here does nothing). */
export function postgresRunner(pool: pg.Pool): SqlRunner {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query({ text, values: utcParams(params), types: pgTypes })).rows as T[];
    },
    async prepared<T>(name: string, text: string, params: unknown[]) {
      const query = { name, text, values: utcParams(params), types: pgTypes };
      return (await pool.query(query)).rows as T[];
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await work(
          async <T>(text: string, params: unknown[] = []) =>
            (await client.query({ text, values: utcParams(params), types: pgTypes })).rows as T[],
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that cannot even roll back is dropped, not handed to the next caller.
        client.release(broken);
      }
    },
    close: async () => {},
  };
}

export async function pgliteRunner(db: PGlite): Promise<SqlRunner> {
  const pglite = await import("@electric-sql/pglite");
  // `timestamp` read as UTC by this database's own parsers. As a per-query option PGlite
  // copies its whole parser table on every query (embedded screening ~560 → ~480 req/s);
  // Prisma's adapter passes parsers of its own, so its results are unchanged.
  db.parsers[TIMESTAMP_OID] = utcTimestamp;
  const on =
    (target: PGlite | Transaction): SqlQuery =>
    async <T>(text: string, params: unknown[] = []) =>
      (await target.query<T>(text, utcParams(params))).rows;
  return {
    query: on(db),
    prepared: preparedOn(db, pglite),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    close: async () => {},
  };
}

/**
 * Prepared statements on PGlite, which its API does not offer: the protocol messages its own
 * query() sends (parse, bind, describe, execute, sync), but the parse only the first time a
 * name is used, and all in one call. Run as its query() runs: alone, and never inside another
 * caller's transaction. Values are text as node-postgres sends them (prepareValue).
 */
function preparedOn(
  db: PGlite,
  { parse, protocol }: Pick<typeof import("@electric-sql/pglite"), "parse" | "protocol">,
) {
  const known = new Set<string>();
  const { serialize } = protocol;
  const send = (parts: Uint8Array[]) => db.execProtocol(Buffer.concat(parts));
  return async <T>(name: string, text: string, params: unknown[]): Promise<T[]> => {
    const values = utcParams(params).map((value) => {
      const prepared: unknown = pgUtils.prepareValue(value);
      if (prepared !== null && typeof prepared !== "string") {
        throw new Error("binary values cannot be sent here");
      }
      return prepared;
    });
    // Whether the name is known is decided inside the exclusive section: two first calls at
    // once would otherwise both parse it.
    const messages = await db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const fresh = !known.has(name);
        try {
          const result = await send([
            ...(fresh ? [serialize.parse({ name, text, types: [] })] : []),
            serialize.bind({ statement: name, values }),
            serialize.describe({ type: "P" }),
            serialize.execute({}),
            serialize.sync(),
          ]);
          known.add(name);
          return result.messages;
        } catch (error) {
          // Parsed in a call that then failed (a bad value), it exists: drop it, so that the
          // next call parses it again rather than failing on "already exists".
          if (fresh) {
            await send([serialize.close({ type: "S", name }), serialize.sync()]).catch(() => {});
          }
          throw error;
        }
      }),
    );
    return (parse.parseResults(messages, db.parsers)[0]?.rows ?? []) as T[];
  };
}
