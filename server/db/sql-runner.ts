/**
 * Plain SQL on the same database, for the few hot paths where Prisma's query engine costs
 * more than the query (screening: one count, one insert; a Stripe event: one read, one write).
 * node-postgres on PostgreSQL, PGlite's own query API when embedded; parameters are $1, $2,
 * ... in both.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";
// CommonJS without named exports Node can see: its default export.
import pgUtils from "pg/lib/utils.js";

export type SqlQuery = <T = Record<string, unknown>>(
  text: string,
  params?: unknown[],
) => Promise<T[]>;

export type Statement = { text: string; params?: unknown[] };

export type SqlRunner = {
  query: SqlQuery;
  /**
   * One statement, kept prepared under `name` on each PostgreSQL connection: parsed and planned
   * once per connection instead of on every call (most of PostgreSQL's work for a small write).
   * A name must always go with the same text. Embedded, one protocol message of literals.
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
      return (await pool.query(text, params)).rows as T[];
    },
    async prepared<T>(name: string, text: string, params: unknown[]) {
      return (await pool.query({ name, text, values: params })).rows as T[];
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await work(
          async <T>(text: string, params: unknown[] = []) =>
            (await client.query(text, params)).rows as T[],
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

export function pgliteRunner(db: PGlite): SqlRunner {
  const on =
    (target: PGlite | Transaction): SqlQuery =>
    async <T>(text: string, params: unknown[] = []) =>
      (await target.query<T>(text, params)).rows;
  return {
    query: on(db),
    // PGlite cannot keep a statement prepared; its exec takes a query as one message.
    async prepared<T>(_name: string, text: string, params: unknown[]) {
      const [result] = await db.exec(inlineStatement({ text, params }));
      return (result?.rows ?? []) as T[];
    },
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    close: async () => {},
  };
}

const PLACEHOLDER = /\$(\d+)/g;

/**
 * The statement with each $n replaced by its value as a quoted literal, for a query sent
 * without parameters. Values become text exactly as node-postgres sends parameters
 * (prepareValue: dates, arrays, JSON) and are quoted by its escapeLiteral; a quoted literal
 * is of unknown type, as an untyped parameter is, so PostgreSQL resolves it the same way.
 * The statement itself must hold no literals, comments or dollar quoting, so that every $n
 * in it is a placeholder (checked, not assumed).
 */
export function inlineStatement({ text, params = [] }: Statement): string {
  if (/'|--|\/\*|\$\$|\$[A-Za-z_]/.test(text)) {
    throw new Error("a batched statement may not hold literals, comments or dollar quoting");
  }
  return text.replace(PLACEHOLDER, (_, digits: string) => {
    const index = Number(digits) - 1;
    if (index < 0 || index >= params.length) throw new Error(`no value for $${digits}`);
    return literal(params[index]);
  });
}

function literal(value: unknown): string {
  const text: unknown = pgUtils.prepareValue(value);
  if (text === null) return "NULL";
  if (typeof text !== "string") throw new Error("binary values cannot be batched");
  // Sent as a C string, a NUL would end the query early; PostgreSQL cannot store one anyway.
  if (text.includes("\u0000")) throw new Error("PostgreSQL cannot store a NUL character");
  return pg.escapeLiteral(text);
}
