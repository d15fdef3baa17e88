/**
 * Table statistics kept up to date as tables grow, on both databases.
 *
 * The embedded database has no autovacuum: PGlite runs PostgreSQL
 * in single-user mode, so nothing ever runs ANALYZE, and every table keeps the statistics of
 * the empty template it was copied from. The planner then takes every index as equally cheap,
 * and the plans it keeps for the prepared hot-path statements pick one at random: the Stripe
 * read looked a charge up through the card index, filtering the account's every row by
 * charge id (EXPLAIN in the server: 3,168 rows read to find one, 45 ms a batch), and the
 * webhook rate fell as the table grew (618 events/s for the first 1,000, 213/s over 5,000).
 *
 * So this does what autovacuum's analyze does on PostgreSQL: every few seconds it compares
 * each table's size on disk with the size its statistics were taken at (pg_class.relpages),
 * and analyzes those that grew by a tenth or more, or doubled once past 10 MB (PostgreSQL's own
 * threshold is a tenth of the rows changed; PGlite does not count changes, its pg_stat views
 * stay at zero, so growth on disk stands in for them). ANALYZE invalidates the plans kept for the table, so the
 * prepared statements are planned again on the new figures. A check reads only pg_class and
 * the files' sizes; an ANALYZE samples at most 30,000 rows, so it costs milliseconds on a
 * young table and stays bounded on a large one, which grows by a tenth rarely.
 *
 * PostgreSQL's autovacuum does analyze, but a minute or more after a table changed: a new
 * install's statements are prepared on empty tables, and the plan kept is the bad one above
 * (bench:webhooks on a fresh database: 695 events/s, b95c5b3 715). There ANALYZE runs in a
 * session of its own, with the usual statistics target, while the others go on.
 */

/** What this needs of the database: a query (PGlite itself, or a PostgreSQL pool). */
type Queryable = { query<T>(text: string): Promise<{ rows: T[] }>; readonly closed?: boolean };

/**
 * Tables grown by more than this fraction since their statistics are analyzed again, while
 * they are small: a young table's first rows change its plans the most.
 */
const GROWTH = 0.1;

/**
 * From this size on (in pages: 10 MB), a table is analyzed again once it doubled. The planner
 * scales its row estimates to the table's size on disk at every plan, so statistics a few
 * thousand rows old choose the same indexes; what a new ANALYZE costs is a pause of the
 * embedded database's one thread (40-60 ms for screenings at 10,000 rows, 3,000 sampled) and
 * every prepared statement of the table planned again. At a tenth, a screening table under
 * 1,000 screenings a second was analyzed at every check, every 5 s, and those pauses alone
 * put the paced p99 past 50 ms (bench:screen with a slow-statement log, issue 44).
 */
const LARGE_PAGES = 1_280;
const LARGE_GROWTH = 1;

/** How much a table of `analyzed` pages must grow before it is analyzed again. */
const growthOf = (analyzed: number) => (analyzed >= LARGE_PAGES ? LARGE_GROWTH : GROWTH);

/** How often the sizes are checked. */
const CHECK_MS = 5_000;

/**
 * Each table of the public schema: its size now and at its last ANALYZE, in pages.
 * relpages is -1/0 for a table never analyzed (a template copy): any page makes it grow.
 */
const SIZES = `
  SELECT c.relname AS "name", greatest(c.relpages, 0)::int AS "analyzed",
    c.reltuples::float8 AS "tuples",
    (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS "pages",
    coalesce((
      SELECT array_agg(DISTINCT a.attname::text ORDER BY a.attname::text)
      FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = c.oid AND a.attnum > 0
    ), '{}') AS "indexed"
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r'`;

type Size = {
  name: string;
  analyzed: number;
  pages: number;
  /** Rows at the last ANALYZE (-1: never analyzed). */
  tuples?: number;
  indexed?: string[];
};

/**
 * A table analyzed while its rows were not yet committed (a bulk insert under way): ANALYZE
 * recorded its pages but none of its rows, so it looks empty to the planner and, its size
 * unchanged since, never grows past that ANALYZE (a fit over 100,000 screenings planned on
 * "1 row" joined them by a full index scan per label and ran past 120 s). Such a table is
 * analyzed again at the next checks, a few times at most: a table whose rows were all deleted
 * keeps its pages and zero rows, and is not analyzed for ever.
 */
export const EMPTY_RETRIES = 3;

/** Tables that look analyzed while empty (pages, no rows), still owed another look. */
export function analyzedEmpty(sizes: readonly Size[], retried: ReadonlyMap<string, number>) {
  return sizes.filter(
    ({ name, analyzed, tuples }) =>
      analyzed > 0 && tuples === 0 && (retried.get(name) ?? 0) < EMPTY_RETRIES,
  );
}

/** The tables whose statistics are out of date: grown by more than their growth since analyzed. */
export const staleTables = (sizes: readonly Size[]) =>
  sizes.filter(({ analyzed, pages }) => pages > 0 && pages > analyzed * (1 + growthOf(analyzed)));

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * ANALYZE of a table's indexed columns only: what the planner needs to choose between its
 * indexes (and the table's size, which any ANALYZE updates). The other columns are the costly
 * ones, JSON documents mostly: a whole-table ANALYZE of 30,000 screenings took about 500 ms,
 * all of it the database's one thread, so every screening waited that long.
 */
export function analyzeStatement({ name, indexed = [] }: Size): string {
  const columns = indexed.length > 0 ? ` (${indexed.map(quoted).join(", ")})` : "";
  return `ANALYZE ${quoted(name)}${columns}`;
}

/**
 * The statistics target of these ANALYZEs: a sample of 300 × 10 rows instead of PostgreSQL's
 * 300 × 100, and ten most common values per column. Enough to tell an index on a unique key
 * from one on an account; the 30,000-row sample held the one thread 370 ms on a table of
 * screening identities, and at 1,000 screenings a second that pause alone put the p99 past a
 * second.
 */
const TARGET = 10;

/**
 * Analyzes every table that grew; the names of those analyzed. `sampled`: with the small
 * statistics target (the embedded database, where ANALYZE holds the one thread); PostgreSQL
 * analyzes in a session of its own while others go on, with its usual target.
 */
export async function analyzeGrown(
  db: Queryable,
  sampled = true,
  retried: Map<string, number> = new Map(),
): Promise<string[]> {
  const sizes = (await db.query<Size>(SIZES)).rows;
  for (const { name, tuples } of sizes) if ((tuples ?? 0) > 0) retried.delete(name);
  const grown = staleTables(sizes);
  const empty = analyzedEmpty(sizes, retried).filter((size) => !grown.includes(size));
  for (const { name } of empty) retried.set(name, (retried.get(name) ?? 0) + 1);
  const stale = [...grown, ...empty];
  if (stale.length === 0) return [];
  if (sampled) await db.query(`SET default_statistics_target = ${TARGET}`);
  try {
    for (const size of stale) await db.query(analyzeStatement(size));
  } finally {
    if (sampled) await db.query("RESET default_statistics_target");
  }
  return stale.map(({ name }) => name);
}

/**
 * Checks every CHECK_MS (unref'd: it never keeps the process alive) until the returned stop
 * is called or the database is closed; stop waits for a check under way. A failed check is
 * reported to `onError` and the next one runs as usual.
 */
export function startAutoAnalyze(
  db: Queryable,
  onError: (error: unknown) => void = () => {},
  { intervalMs = CHECK_MS, sampled = true }: { intervalMs?: number; sampled?: boolean } = {},
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const retried = new Map<string, number>();
  const timer = setInterval(() => {
    running = running.then(() =>
      stopped || db.closed ? null : analyzeGrown(db, sampled, retried).catch(onError),
    );
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
