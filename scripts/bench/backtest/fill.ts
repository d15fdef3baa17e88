/**
 * Fills bench:backtest's account straight in the database: a session to log in with,
 * screenings and charges (80 / 20) spread over the last 30 days, counting rows from the 30
 * days before (seeds), then VACUUM.
 */
import type { Database } from "../../../server/db/database.ts";
import { randomToken, sha256Bytes } from "../../../server/lib/tokens.ts";
import { CHARGES_SQL, SCREENINGS_SQL, SEED_KINDS, seedSql } from "./fill-sql.ts";
import { ACCOUNT, DAY_MS, SEED_EVENTS } from "./options.ts";

const CHUNK = 100_000;

/** The account, a user and a session; the session's bearer token. */
async function createSession(db: Database, now: number): Promise<string> {
  await db.prisma.account.create({ data: { id: ACCOUNT } });
  const user = await db.prisma.user.create({
    data: {
      accountId: ACCOUNT,
      email: "bench@example.com",
      passwordHash: "not-a-login",
      emailConfirmedAt: new Date(),
    },
  });
  const id = randomToken();
  const secret = randomToken();
  await db.prisma.session.create({
    data: {
      id,
      secretHash: Buffer.from(sha256Bytes(secret)),
      userId: user.id,
      expiresAt: new Date(now + DAY_MS),
    },
  });
  return `${id}.${secret}`;
}

/** Runs `insert(first, last)` over 1..total in chunks, with a progress line on stderr. */
async function inChunks(
  what: string,
  total: number,
  insert: (first: number, last: number) => Promise<unknown>,
) {
  for (let first = 1; first <= total; first += CHUNK) {
    const last = Math.min(total, first + CHUNK - 1);
    await insert(first, last);
    process.stderr.write(`\r  ${what} ${last.toLocaleString()} / ${total.toLocaleString()}`);
  }
  process.stderr.write("\n");
}

/** Screenings, charges and seed rows for one account, by INSERT … SELECT over generate_series. */
export async function fill(
  db: Database,
  events: number,
): Promise<{ token: string; counts: object }> {
  const screenings = Math.round(events * 0.8);
  const charges = events - screenings;
  const now = Date.now();
  const span = 30 * DAY_MS - 60_000;
  const token = await createSession(db, now);
  const run = (sql: string, ...params: unknown[]) => db.prisma.$executeRawUnsafe(sql, ...params);
  await inChunks("screenings", screenings, (first, last) =>
    run(SCREENINGS_SQL, ACCOUNT, first, last, now, span, screenings),
  );
  // The 30 days before the window: device, email and IP rows (hashed as Warden hashes them).
  for (const [kind, value] of SEED_KINDS) {
    await run(seedSql(kind, value), ACCOUNT, now, span, SEED_EVENTS);
  }
  await inChunks("charges", charges, (first, last) =>
    run(CHARGES_SQL, ACCOUNT, now, span, charges, first, last),
  );
  // VACUUM as autovacuum would have by then on a database in use: without it the first read
  // of a million freshly inserted rows also sets their hint bits, writing every page again.
  for (const table of ["Screening", "ScreeningIdentity", "Transaction"]) {
    await run(`VACUUM (ANALYZE) "${table}"`);
  }
  return { token, counts: { screenings, charges, seedRows: SEED_EVENTS * 3 } };
}
