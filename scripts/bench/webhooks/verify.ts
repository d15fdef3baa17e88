/**
 * After the run, with the server stopped: what it stored, read straight from its database,
 * against what the stream sent, and the problems that fail the run.
 */
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { pgliteExtensions } from "../../../server/db/embedded.ts";
import type { Load } from "./load.ts";

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

export type Stored = {
  events: number;
  rows: number;
  wrong: number;
  missing: number;
  sample: string[];
};

/** Reads what the server stored, once it has stopped, against what the stream sent. */
async function verify(
  query: Query,
  accountId: string,
  newest: Map<string, number>,
): Promise<Stored> {
  const [events] = await query(
    `SELECT count(*)::int AS n FROM "StripeEvent" WHERE "accountId" = $1`,
    [accountId],
  );
  const rows = await query(
    `SELECT "chargeId", "lastEventAt", "hasCharge" FROM "Transaction" WHERE "accountId" = $1`,
    [accountId],
  );
  const seen = new Map(rows.map((r) => [r.chargeId as string, r]));
  let wrong = 0;
  let missing = 0;
  const sample: string[] = [];
  for (const [chargeId, created] of newest) {
    const row = seen.get(chargeId);
    if (!row) {
      missing++;
      if (sample.length < 5) sample.push(`${chargeId}: no row`);
    } else if (row.lastEventAt !== created || row.hasCharge !== true) {
      wrong++;
      if (sample.length < 5)
        sample.push(
          `${chargeId}: lastEventAt ${row.lastEventAt}, expected ${created}; hasCharge ${row.hasCharge}`,
        );
    }
  }
  return { events: Number(events?.n ?? 0), rows: rows.length, wrong, missing, sample };
}

/** The account whose webhook endpoint is `path`'s last segment. */
const accountOf = async (query: Query, path: string) =>
  (
    await query(`SELECT "id" FROM "Account" WHERE "webhookEndpointId" = $1`, [
      path.split("/").pop(),
    ])
  )[0]?.id as string;

/** Reads what the server stored: from PostgreSQL at `databaseUrl`, else dataDir's pgdata. */
export async function readStored(
  databaseUrl: string | null,
  dataDir: string,
  path: string,
  newest: Map<string, number>,
): Promise<Stored> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const query = async (t: string, p: unknown[]) => (await client.query(t, p)).rows;
    const stored = await verify(query, await accountOf(query, path), newest);
    await client.end();
    return stored;
  }
  const db = await PGlite.create(join(dataDir, "pgdata"), { extensions: await pgliteExtensions() });
  const query = async (t: string, p: unknown[]) =>
    (await db.query<Record<string, unknown>>(t, p)).rows;
  const stored = await verify(query, await accountOf(query, path), newest);
  await db.close();
  return stored;
}

/** What fails the run: an event not stored once or not applied, a charge not at its newest. */
export function storedProblems(loads: Load[], stored: Stored, charges: number): string[] {
  const sent = loads.reduce((n, l) => n + l.count, 0);
  const applied = loads.reduce((n, l) => n + (l.answers.applied ?? 0), 0);
  const problems: string[] = [];
  if (stored.events !== sent) problems.push(`${sent} events sent, ${stored.events} stored`);
  if (applied !== sent) problems.push(`${sent} events sent, ${applied} answered "applied"`);
  if (stored.missing || stored.wrong)
    problems.push(
      `${stored.missing} charges without a row, ${stored.wrong} not at their newest event: ${stored.sample.join("; ")}`,
    );
  if (stored.rows !== charges) problems.push(`${charges} charges sent, ${stored.rows} rows`);
  return problems;
}
