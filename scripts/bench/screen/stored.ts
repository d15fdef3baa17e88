/**
 * `--stored N` (PostgreSQL): N screenings of history put straight into the merchant's account
 * before the fill, spread over the 90 days that end two hours ago, with their device, email
 * and IP counting rows (bench:backtest's statements, fill-sql.ts). The fill then sends live
 * traffic on top, so the measured loads run against a table of N + fill screenings whose
 * short windows hold only the live traffic, as on a real install. (A fill over HTTP alone puts
 * every screening in the last minutes, so every window grows with it.) The counting rows are
 * keyed under the account's digest key, as Warden stores them now; `--stored-digests legacy`
 * stores them unkeyed instead, as an install upgraded from before keyed digests holds them (decision
 * 013), so every probe also makes its legacy lookup.
 */
import pg from "pg";
import { createEncryptor } from "../../../server/lib/encryption.ts";
import { createDigestKeys } from "../../../server/modules/screening/features/identities.ts";
import { progressBar } from "../../lib/progress.ts";
import { SCREENINGS_SQL, SEED_KINDS, seedSql } from "../backtest/fill-sql.ts";

const DAY_MS = 86_400_000;
const SPAN_MS = 90 * DAY_MS;
const CHUNK = 100_000;

export async function storeHistory(
  label: string,
  databaseUrl: string,
  count: number,
  /** Warden's ENCRYPTION_KEY (base64), to key the digests; null: store them unkeyed. */
  encryptionKey: string | null,
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const bar = progressBar(`${label}: storing ${count} screenings of history`);
  const started = performance.now();
  try {
    const accounts = await client.query<{ id: string }>('SELECT "id" FROM "Account"');
    if (accounts.rows.length !== 1) throw new Error("--stored needs the bench's one account");
    const account = accounts.rows[0]?.id as string;
    const key = encryptionKey
      ? createDigestKeys(
          createEncryptor(Buffer.from(encryptionKey, "base64")).derive("identity-digests"),
        )(account)
      : null;
    const end = Date.now() - 2 * 3_600_000;
    for (let first = 1; first <= count; first += CHUNK) {
      const last = Math.min(count, first + CHUNK - 1);
      await client.query(SCREENINGS_SQL, [account, first, last, end, SPAN_MS, count]);
      bar.update((last / count) * 50, `${last}/${count} screenings`);
    }
    // seedSql puts its rows in the 30 days before its window's end: shifted to end at `end`.
    for (const [i, [kind, value]] of SEED_KINDS.entries()) {
      const params = [account, end + 30 * DAY_MS, SPAN_MS, count];
      await client.query(seedSql(kind, value, key !== null), key ? [...params, key] : params);
      bar.update(50 + ((i + 1) / SEED_KINDS.length) * 40, `${kind} rows`);
    }
    for (const table of ["Screening", "ScreeningIdentity"]) {
      await client.query(`VACUUM (ANALYZE) "${table}"`);
    }
    const seconds = (performance.now() - started) / 1000;
    bar.done(`${label}: ${count} screenings of history stored in ${seconds.toFixed(1)} s`);
    return { count, seconds };
  } finally {
    await client.end();
  }
}
