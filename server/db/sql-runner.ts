/**
 * Plain SQL on the same database, for the few hot paths where Prisma's query engine costs
 * more than the query (screening: one count, one insert). node-postgres on PostgreSQL,
 * PGlite's own query API when embedded; parameters are $1, $2, ... in both.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";

export type SqlQuery = <T = Record<string, unknown>>(
  text: string,
  params?: unknown[],
) => Promise<T[]>;

export type SqlRunner = {
  query: SqlQuery;
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
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(
          async <T>(text: string, params: unknown[] = []) =>
            (await client.query(text, params)).rows as T[],
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
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
    close: async () => {},
  };
}
