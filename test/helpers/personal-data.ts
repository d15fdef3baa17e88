/**
 * The proof that a person's raw values are gone (issue 35, docs/privacy.md): every place a
 * value occurs, in any case, in any text, varchar, char, json, jsonb or text[] column of any
 * table of the current schema. The columns are read from information_schema at run time, so a
 * table or column added later is searched without a change here; only Prisma's migrations
 * table is left out. Works on the embedded database and on PostgreSQL, through Prisma's raw
 * queries or the database's own SQL runner.
 */
import type { SqlQuery } from "../../server/db/sql-runner.ts";

/** Anything that runs plain SQL with $1, $2 … parameters: a Database, its SqlRunner, Prisma. */
export type RawQueryHandle =
  | { sql: { query: SqlQuery } }
  | { query: SqlQuery }
  | { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

export type RawValueHit = {
  table: string;
  column: string;
  /** The row's primary key (its columns' values joined by "/"), or its ctid when it has none. */
  row: string;
  ctid: string;
  /** The row's "accountId" when its table has one (whose data it is), else null. */
  accountId: string | null;
  /** The value searched for that was found. */
  value: string;
  /** The stored text around the first occurrence. */
  excerpt: string;
};

/** The table Prisma keeps its applied migrations in: names of migrations, nobody's data. */
const EXCLUDED_TABLES = new Set(["_prisma_migrations"]);

type Column = { table: string; column: string; kind: "text" | "json" | "array" };

function runner(handle: RawQueryHandle): SqlQuery {
  if ("$queryRawUnsafe" in handle) {
    return (<T>(text: string, params: unknown[] = []) =>
      handle.$queryRawUnsafe<T[]>(text, ...params)) as SqlQuery;
  }
  if ("sql" in handle) return handle.sql.query;
  return handle.query;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** LIKE's own characters taken literally (the default escape character is the backslash). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The forms a value takes when stored: as it is, JSON-escaped (inside a JSON string), and
 * JSON-escaped twice (a JSON document kept as a string inside another, e.g. a webhook body in
 * a JSON log). Lowercased: the search ignores case.
 */
export function storedForms(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([value, once, twice].map((form) => form.toLowerCase()))];
}

/** Every searchable column of every table of the current schema, as the database has it now. */
export async function searchableColumns(handle: RawQueryHandle): Promise<Column[]> {
  const query = runner(handle);
  const rows = await query<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
  }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.udt_name
       FROM information_schema.columns c
       JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema()
        AND t.table_type = 'BASE TABLE'
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
             OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar', '_bpchar')))
      ORDER BY c.table_name, c.ordinal_position`,
  );
  return rows
    .filter((row) => !EXCLUDED_TABLES.has(row.table_name))
    .map((row) => ({
      table: row.table_name,
      column: row.column_name,
      kind:
        row.data_type === "ARRAY"
          ? "array"
          : row.data_type === "json" || row.data_type === "jsonb"
            ? "json"
            : "text",
    }));
}

async function primaryKeyOf(query: SqlQuery, table: string): Promise<string[]> {
  const rows = await query<{ attname: string }>(
    `SELECT a.attname
       FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [ident(table)],
  );
  return rows.map((row) => row.attname);
}

/**
 * Every (table, column, row) holding any of `values`, in any case, in any searchable column.
 * Empty values are ignored. A JSON column is searched in its text form, where a string is
 * JSON-escaped; a text[] column element by element.
 */
export async function findRawValues(
  handle: RawQueryHandle,
  values: string[],
): Promise<RawValueHit[]> {
  const query = runner(handle);
  const wanted = [...new Set(values.filter((value) => value.length > 0))];
  if (wanted.length === 0) return [];
  const forms = wanted.map((value) => ({ value, forms: storedForms(value) }));
  const patterns = [...new Set(forms.flatMap((f) => f.forms))].map(
    (form) => `%${likeLiteral(form)}%`,
  );
  const columns = await searchableColumns(handle);
  const keys = new Map<string, string[]>();
  const hits: RawValueHit[] = [];
  for (const { table, column, kind } of columns) {
    if (!keys.has(table)) keys.set(table, await primaryKeyOf(query, table));
    const key = keys.get(table) as string[];
    const col = ident(column);
    const matches = (expr: string) =>
      patterns.map((_, i) => `${expr} ILIKE $${i + 1}`).join(" OR ");
    const where =
      kind === "array"
        ? `EXISTS (SELECT 1 FROM unnest(${col}) AS element WHERE ${matches("element")})`
        : matches(`${col}::text`);
    const rowId = key.length
      ? key.map((name) => `coalesce(${ident(name)}::text, '')`).join(` || '/' || `)
      : "ctid::text";
    const account = columns.some((c) => c.table === table && c.column === "accountId")
      ? `${ident("accountId")}::text`
      : "NULL::text";
    const rows = await query<{
      row_id: string;
      row_ctid: string;
      account_id: string | null;
      content: string;
    }>(
      `SELECT ${rowId} AS row_id, ctid::text AS row_ctid, ${account} AS account_id,
              ${col}::text AS content
         FROM ${ident(table)} WHERE ${where}`,
      patterns,
    );
    for (const row of rows) {
      const content = row.content.toLowerCase();
      for (const { value, forms: valueForms } of forms) {
        const at = valueForms.map((form) => content.indexOf(form)).find((index) => index >= 0);
        if (at === undefined) continue;
        hits.push({
          table,
          column,
          row: row.row_id,
          ctid: row.row_ctid,
          accountId: row.account_id,
          value,
          excerpt: row.content.slice(Math.max(0, at - 60), at + value.length + 60),
        });
      }
    }
  }
  return hits;
}

/** One line per hit, for a failing assertion's message: table.column row → value (excerpt). */
export function describeHits(hits: RawValueHit[]): string {
  return hits
    .map((hit) => `${hit.table}.${hit.column} [${hit.row}] holds ${hit.value}: …${hit.excerpt}…`)
    .join("\n");
}

/** The tables (and their columns) where each value was found: table.column, sorted. */
export function placesOf(hits: RawValueHit[], value?: string): string[] {
  return [
    ...new Set(
      hits
        .filter((hit) => value === undefined || hit.value === value)
        .map((h) => `${h.table}.${h.column}`),
    ),
  ].sort();
}

/** Every row of every table, as its JSON text, keyed "Table key" (the primary key's values). */
export type TableSnapshot = Map<string, string>;

/**
 * The whole database as text, row by row: what "byte for byte what it was" is checked against
 * (test/privacy/erasure-proof.int.test.ts). `skip` leaves out tables that change on their own
 * (sessions, throttles).
 */
export async function snapshotTables(
  handle: RawQueryHandle,
  skip: ReadonlySet<string> = new Set(),
): Promise<TableSnapshot> {
  const query = runner(handle);
  const tables = await query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const snapshot: TableSnapshot = new Map();
  for (const { table_name: table } of tables) {
    if (EXCLUDED_TABLES.has(table) || skip.has(table)) continue;
    const key = await primaryKeyOf(query, table);
    const rowId = key.length
      ? key.map((name) => `coalesce(${ident(name)}::text, '')`).join(` || '/' || `)
      : "ctid::text";
    const rows = await query<{ row_id: string; content: string }>(
      `SELECT ${rowId} AS row_id, to_jsonb(t)::text AS content FROM ${ident(table)} t`,
    );
    for (const row of rows) snapshot.set(`${table} ${row.row_id}`, row.content);
  }
  return snapshot;
}

/** What changed between two snapshots: rows added, removed and changed, by "Table key". */
export function snapshotDiff(before: TableSnapshot, after: TableSnapshot) {
  const added = [...after.keys()].filter((key) => !before.has(key));
  const removed = [...before.keys()].filter((key) => !after.has(key));
  const changed = [...before.keys()].filter(
    (key) => after.has(key) && after.get(key) !== before.get(key),
  );
  return { added, removed, changed };
}
