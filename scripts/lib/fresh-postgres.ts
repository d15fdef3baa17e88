/**
 * A fresh, empty PostgreSQL database beside `adminUrl` (warden_<label>_<time>), for a benchmark
 * or a test that must start from nothing; `drop` removes it, ending any connection still open.
 */
import pg from "pg";

export async function freshPostgresDatabase(adminUrl: string, label: string) {
  const name = `warden_${label}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
