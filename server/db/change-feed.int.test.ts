/**
 * The PostgreSQL change feed when its listening connection is killed (a failover, a restart,
 * pg_terminate_backend): it says so in the log, listens again, tells its own subscribers to
 * forget everything (they missed notices meanwhile), and sends the changes published while it
 * was down instead of dropping them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/helpers/databases.ts";
import { CHANGE_FEED_APPLICATION, type Change, createPostgresChangeFeed } from "./change-feed.ts";
import type { Database } from "./database.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("change feed on PostgreSQL", () => {
  let db: Database;
  const listeners = async () =>
    (
      await db.sql.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [CHANGE_FEED_APPLICATION],
      )
    ).map((row) => row.pid);

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
  });
  afterAll(async () => {
    await db?.close();
  });

  it("logs a lost connection, listens again, resets its subscribers and sends what was published meanwhile", async () => {
    const url = db.url ?? "";
    const warnings: string[] = [];
    let a: ReturnType<typeof createPostgresChangeFeed> | undefined;
    let publishedWhileDown = false;
    a = createPostgresChangeFeed(url, {
      warn(_obj, message) {
        warnings.push(message);
        // The connection is down right now: a change published here must not be lost.
        if (!publishedWhileDown && a) {
          publishedWhileDown = true;
          a.publish({ topic: "api-keys", accountId: "account-1" });
        }
      },
    });
    await expect.poll(listeners).toHaveLength(1);
    const [pidOfA] = await listeners();
    const b = createPostgresChangeFeed(url, { warn() {} });
    await expect.poll(listeners).toHaveLength(2);
    const heardByA: Change[] = [];
    const heardByB: Change[] = [];
    a.subscribe((change) => heardByA.push(change));
    b.subscribe((change) => heardByB.push(change));
    try {
      await db.sql.query("SELECT pg_terminate_backend($1)", [pidOfA]);
      await expect
        .poll(() => heardByA, { timeout: 5000 })
        .toContainEqual({
          topic: "*",
          accountId: "*",
        });
      expect(warnings[0]).toBe("change feed connection lost; reconnecting");
      expect(await listeners()).not.toContain(pidOfA);
      await expect
        .poll(() => heardByB, { timeout: 2000 })
        .toEqual([{ topic: "api-keys", accountId: "account-1" }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
