/**
 * The erasure's catch-all (decision 029): every occurrence of the person's values in the
 * account's rows, in every text, JSON and text-array column of every table that has an
 * "accountId", read from the catalogue at run time (a column added later is covered without
 * code), is replaced with "[erased]". The values are matched whole (not as a part of a longer
 * email, address or id), in any case, raw and JSON-escaped; they travel as a parameter, never
 * in the statement's text. What is left out, and why, is in SKIPPED.
 */
import type { Prisma } from "../../db/generated/client.ts";

export const ERASED = "[erased]";

/** A value with its regular-expression characters escaped (PostgreSQL's advanced REs). */
export function regexLiteral(value: string): string {
  return value.replace(/[\\^$.*+?()[\]{}|/\-#:=!<>,&~'"`@%]/g, "\\$&");
}

/** The value as it appears inside a JSON string (quotes, backslashes, controls escaped). */
export function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * One pattern for all the values: each raw and JSON-escaped, not preceded by a letter, digit,
 * `_ . @ + - \` (a longer email or id, or the middle of a JSON escape) and not followed by a
 * letter, digit, `_ @ -` or a dot and a letter or digit (a longer address or domain).
 */
export function erasurePattern(values: readonly string[]): string | null {
  const forms = new Set<string>();
  for (const value of values) {
    if (!value) continue;
    forms.add(regexLiteral(value));
    forms.add(regexLiteral(jsonEscaped(value)));
  }
  if (forms.size === 0) return null;
  // Longest first, so a value that starts another is not taken for it.
  const alternatives = [...forms].sort((a, b) => b.length - a.length).join("|");
  return `(?<![[:alnum:]_.@+\\\\-])(?:${alternatives})(?![[:alnum:]_@-]|\\.[[:alnum:]])`;
}

/**
 * Tables and columns the sweep leaves alone, and why:
 * - User, Session, Membership, Invite: the merchant's team, not its end users (a member's
 *   email is theirs to change; rewriting it would lock them out).
 * - AuditEvent: only target, before and after may change, in an erasure (the trigger of
 *   migration 20261127031608_privacy_retention); who, when, from where and what stay.
 */
const SKIPPED_TABLES = new Set(["User", "Session", "Membership", "Invite"]);
const ONLY_COLUMNS: Record<string, readonly string[]> = {
  AuditEvent: ["target", "before", "after"],
};

type Column = { table: string; column: string; kind: "text" | "json" | "jsonb" | "array" };

/** A quoted identifier (names come from the catalogue; quotes doubled all the same). */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

type Db = Prisma.TransactionClient;

/**
 * The columns swept: text, varchar, json, jsonb and text arrays of tables with "accountId",
 * except "accountId" itself, key columns (in a primary key, a unique index or a foreign key:
 * ids, never personal values) and SKIPPED.
 */
export async function sweptColumns(db: Db): Promise<Column[]> {
  const rows = await db.$queryRaw<{ table: string; column: string; type: string; udt: string }[]>`
    SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS "type",
           c.udt_name AS "udt"
    FROM information_schema.columns c
    WHERE c.table_schema = current_schema()
      AND c.column_name <> 'accountId'
      AND EXISTS (
        SELECT 1 FROM information_schema.columns a
        WHERE a.table_schema = c.table_schema AND a.table_name = c.table_name
          AND a.column_name = 'accountId')
      AND EXISTS (
        SELECT 1 FROM information_schema.tables t
        WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name
          AND t.table_type = 'BASE TABLE')
      AND (c.data_type IN ('text', 'character varying', 'json', 'jsonb')
           OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
      AND NOT EXISTS (
        SELECT 1
        FROM pg_catalog.pg_index i
        JOIN pg_catalog.pg_attribute att ON att.attrelid = i.indrelid AND att.attnum = ANY(i.indkey)
        WHERE i.indrelid = format('%I.%I', c.table_schema, c.table_name)::regclass
          AND i.indisunique AND att.attname = c.column_name)
      AND NOT EXISTS (
        SELECT 1
        FROM pg_catalog.pg_constraint k
        JOIN pg_catalog.pg_attribute att ON att.attrelid = k.conrelid AND att.attnum = ANY(k.conkey)
        WHERE k.conrelid = format('%I.%I', c.table_schema, c.table_name)::regclass
          AND k.contype = 'f' AND att.attname = c.column_name)
    ORDER BY c.table_name, c.ordinal_position`;
  return rows
    .filter((row) => !SKIPPED_TABLES.has(row.table))
    .filter((row) => ONLY_COLUMNS[row.table]?.includes(row.column) ?? true)
    .map((row) => ({
      table: row.table,
      column: row.column,
      kind:
        row.type === "ARRAY"
          ? "array"
          : row.type === "json"
            ? "json"
            : row.type === "jsonb"
              ? "jsonb"
              : "text",
    }));
}

/** Whether a column holds the pattern ($2), and its value with every match replaced. */
function matchAndReplace({ column, kind }: Column): { matches: string; replaced: string } {
  const c = ident(column);
  const replace = (text: string) => `regexp_replace(${text}, $2, '${ERASED}', 'gi')`;
  switch (kind) {
    case "text":
      return { matches: `${c} ~* $2`, replaced: replace(c) };
    case "json":
    case "jsonb":
      return { matches: `${c}::text ~* $2`, replaced: `${replace(`${c}::text`)}::${kind}` };
    case "array":
      return {
        matches: `EXISTS (SELECT 1 FROM unnest(${c}) AS e(v) WHERE e.v ~* $2)`,
        replaced: `ARRAY(SELECT ${replace("e.v")} FROM unnest(${c}) WITH ORDINALITY AS e(v, n) ORDER BY e.n)`,
      };
  }
}

/** The statement that sweeps one table's columns for one account ($1) and pattern ($2). */
export function sweepStatement(table: string, columns: readonly Column[]): string {
  const parts = columns.map((column) => ({ column, ...matchAndReplace(column) }));
  const sets = parts.map(
    ({ column, matches, replaced }) =>
      `${ident(column.column)} = CASE WHEN ${matches} THEN ${replaced} ELSE ${ident(column.column)} END`,
  );
  return `UPDATE ${ident(table)} SET ${sets.join(", ")}
    WHERE "accountId" = $1 AND (${parts.map((p) => p.matches).join(" OR ")})`;
}

/** Rows whose swept columns hold the pattern, per table; nothing is changed. */
export function matchStatement(table: string, columns: readonly Column[]): string {
  const matches = columns.map((column) => matchAndReplace(column).matches);
  return `SELECT count(*)::int AS n FROM ${ident(table)}
    WHERE "accountId" = $1 AND (${matches.join(" OR ")})`;
}

const byTable = (columns: readonly Column[]) => {
  const tables = new Map<string, Column[]>();
  for (const column of columns) {
    tables.set(column.table, [...(tables.get(column.table) ?? []), column]);
  }
  return tables;
};

/** Replaces every match of `pattern` in the account's rows; rows changed, per table. */
export async function sweep(
  db: Db,
  accountId: string,
  pattern: string,
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const [table, columns] of byTable(await sweptColumns(db))) {
    changed[table] = await db.$executeRawUnsafe(sweepStatement(table, columns), accountId, pattern);
  }
  return changed;
}

/** Rows of one table whose swept columns match `pattern` (the preview's count). */
export async function countMatches(
  db: Db,
  table: string,
  accountId: string,
  pattern: string,
): Promise<number> {
  const columns = (await sweptColumns(db)).filter((column) => column.table === table);
  if (columns.length === 0) return 0;
  const rows = await db.$queryRawUnsafe<{ n: number }[]>(
    matchStatement(table, columns),
    accountId,
    pattern,
  );
  return rows[0]?.n ?? 0;
}

/** The ids (newest first, at most `limit`) of a table's rows that match `pattern`. */
export async function matchIds(
  db: Db,
  table: "WebhookDelivery" | "AuditEvent",
  accountId: string,
  pattern: string,
  limit: number,
): Promise<string[]> {
  const columns = (await sweptColumns(db)).filter((column) => column.table === table);
  if (columns.length === 0) return [];
  const matches = columns.map((column) => matchAndReplace(column).matches);
  const newest = table === "AuditEvent" ? `"at"` : `"createdAt"`;
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT "id" FROM ${ident(table)} WHERE "accountId" = $1 AND (${matches.join(" OR ")})
     ORDER BY ${newest} DESC LIMIT $3`,
    accountId,
    pattern,
    limit,
  );
  return rows.map((row) => row.id);
}
