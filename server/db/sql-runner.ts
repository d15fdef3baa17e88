/**
 * Plain SQL on the same database, for the few hot paths where Prisma's query engine costs
 * more than the query (screening: one count, one insert; a Stripe event: two round trips).
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

/**
 * A transaction sent as batches of statements, each batch one query of literals. On
 * PostgreSQL BEGIN rides on the first batch and COMMIT on the last, each batch one round trip:
 * a read-decide-write transaction costs two instead of one per statement plus BEGIN and COMMIT.
 */
export type BatchTx = {
  /** Runs the statements in order inside the transaction; each one's rows. */
  run(statements: Statement[]): Promise<Record<string, unknown>[][]>;
  /** Runs the statements and commits; each one's rows. */
  commit(statements: Statement[]): Promise<Record<string, unknown>[][]>;
};

export type SqlRunner = {
  query: SqlQuery;
  /** Runs `work` on one connection inside BEGIN … COMMIT (ROLLBACK when it throws). */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a transaction of batches (BatchTx). What `work` does not commit is rolled
   * back: returning without `commit` keeps nothing, as does throwing.
   */
  batches<T>(work: (tx: BatchTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** Queries on `pool`; the pool's owner ends it (close here does nothing). */
export function postgresRunner(pool: pg.Pool): SqlRunner {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
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
    async batches(work) {
      const client = await pool.connect();
      let begun = false;
      let ended = false;
      let broken: Error | undefined;
      // A batch is one simple-protocol query (several statements, no parameters), so the
      // values go in as escaped literals: see inlineStatement.
      const send = async (statements: Statement[], end: "COMMIT" | null) => {
        const texts = statements.map(inlineStatement);
        const skip = begun ? 0 : 1;
        if (!begun) texts.unshift("BEGIN");
        begun = true;
        if (end) texts.push(end);
        const results = (await client.query(texts.join(";\n"))) as unknown as
          | pg.QueryResult
          | pg.QueryResult[];
        if (end) ended = true;
        const list = Array.isArray(results) ? results : [results];
        return list.slice(skip, skip + statements.length).map((result) => result.rows);
      };
      try {
        const result = await work({
          run: (statements) => send(statements, null),
          commit: (statements) => send(statements, "COMMIT"),
        });
        if (begun && !ended) await client.query("ROLLBACK");
        return result;
      } catch (error) {
        if (begun && !ended) {
          await client.query("ROLLBACK").catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        }
        throw error;
      } finally {
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
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    // No network here, but each query with parameters is six protocol messages through
    // PGlite (parse, describe, bind, describe, execute, sync); a batch of literals is one.
    batches: (work) =>
      db.transaction(async (tx) => {
        let committed = false;
        const run = async (statements: Statement[]) => {
          const results = await tx.exec(statements.map(inlineStatement).join(";\n"));
          return results.map((result) => result.rows as Record<string, unknown>[]);
        };
        const result = await work({
          run,
          async commit(statements) {
            const rows = await run(statements);
            committed = true;
            return rows;
          },
        });
        if (!committed) await tx.rollback();
        return result;
      }),
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
