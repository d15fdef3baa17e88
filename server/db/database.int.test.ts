import pg from "pg";
import { describe, expect, it } from "vitest";
import { withOwnConnection } from "./database.ts";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("a connection of its own (PostgreSQL)", () => {
  it("ended by the server between two queries, fails the next query instead of the process", async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const outcome = withOwnConnection(url as string, async (client) => {
        const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        const ended = new Promise((resolve) => client.once("end", resolve));
        // FATAL 57P01 arrives while no query runs: node-postgres emits it as "error".
        await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
        await ended;
        return client.query("SELECT 1");
      });
      await expect(outcome).rejects.toThrow(/not queryable/);
    } finally {
      await admin.end();
    }
  });
});
