/**
 * Authentication against the real repository and database, with its queries counted: a
 * made-up key must cost no query and evict no real key; a key another instance created a
 * moment ago (not yet announced here) is still found; a revocation on another instance is
 * heard through the change feed, or, if its notice was lost, once the table is five minutes
 * old; a lookup that overlaps a revocation does not bring the key back.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import { testClock } from "../../../test/helpers/test-app.ts";
import { createLocalChangeFeed } from "../../db/change-feed.ts";
import type { Database } from "../../db/database.ts";
import { createApiKeysRepository } from "./api-keys.repository.ts";
import { createApiKeysService } from "./api-keys.service.ts";
import { createKeyTags } from "./key-tag.ts";
import { KEYS_MAX_AGE_MS } from "./live-keys.ts";

const tags = createKeyTags(randomBytes(32));
const log = { warn() {} };

describe.each(DB_KINDS)("API key authentication (%s)", (kind) => {
  let db: Database;
  let accountId = "";
  const queries = { byHash: 0, listLive: 0 };
  /** Table reads finished. */
  let listed = 0;

  function service(
    changes = createLocalChangeFeed(),
    { now = () => new Date(), beforeFound = async () => {} } = {},
  ) {
    const real = createApiKeysRepository(db.prisma);
    const counted = {
      ...real,
      async findLiveByHash(hash: string) {
        queries.byHash += 1;
        const row = await real.findLiveByHash(hash);
        await beforeFound();
        return row;
      },
      async listLive(account?: string) {
        queries.listLive += 1;
        const rows = await real.listLive(account);
        listed += 1;
        return rows;
      },
    };
    return createApiKeysService({
      repo: counted,
      changes,
      now,
      tags,
      ratePerMinute: 1_000_000,
      log,
    });
  }

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accountId = (await db.prisma.account.create({ data: {} })).id;
  });
  afterAll(async () => {
    await db?.close();
  });

  it("refuses 20,000 made-up keys without a query, and the real key still needs none", async () => {
    const keys = service();
    const created = await keys.create(accountId, { name: "backend", kind: "secret" });
    expect(await keys.authenticate(created.key)).toMatchObject({ accountId });
    queries.byHash = 0;
    queries.listLive = 0;
    for (let i = 0; i < 10_000; i++) {
      // Keys of the current shape with a wrong tag, and of the old untagged shape.
      expect(await keys.authenticate(`wdn_sk_${randomBytes(20).toString("hex")}`)).toBeNull();
      expect(
        await keys.authenticate(`wdn_sk_${randomBytes(30).toString("base64url").slice(0, 39)}`),
      ).toBeNull();
    }
    expect(await keys.authenticate(created.key)).toMatchObject({ accountId });
    expect(queries).toEqual({ byHash: 0, listLive: 0 });
  });

  it("finds a key another instance just created (its tag is ours) with one query, once", async () => {
    const here = service();
    const there = service();
    await here.warm();
    // `there` creates the key; the two instances share no change feed, so `here` is not told.
    const created = await there.create(accountId, { name: "new", kind: "publishable" });
    queries.byHash = 0;
    expect(await here.identify(created.key)).toMatchObject({
      accountId,
      key: { kind: "publishable" },
    });
    expect(await here.identify(created.key)).toMatchObject({ accountId });
    expect(queries.byHash).toBe(1);
  });

  it("drops a key revoked elsewhere as soon as the change feed says so", async () => {
    const feed = createLocalChangeFeed();
    const here = service(feed);
    const there = service(feed);
    const created = await there.create(accountId, { name: "revoked", kind: "secret" });
    expect(await here.authenticate(created.key)).not.toBeNull();
    await there.revoke(accountId, created.id);
    await expect.poll(() => here.authenticate(created.key), { timeout: 2000 }).toBeNull();
  });

  it("refuses a key revoked elsewhere, its notice lost, once the table is five minutes old", async () => {
    const clock = testClock();
    // Two instances that share no change feed: the revocation's notice never arrives here.
    const here = service(createLocalChangeFeed(), { now: clock.now });
    const there = service();
    const created = await there.create(accountId, { name: "unheard", kind: "secret" });
    expect(await here.authenticate(created.key)).not.toBeNull();
    await there.revoke(accountId, created.id);
    clock.advance(KEYS_MAX_AGE_MS - 1000);
    expect(await here.authenticate(created.key)).not.toBeNull();
    clock.advance(1000);
    expect(await here.authenticate(created.key)).toBeNull();
  });

  it("does not bring back a key revoked while a lookup of it was under way", async () => {
    const feed = createLocalChangeFeed();
    let release = () => {};
    let found = () => {};
    const lookupRead = new Promise<void>((resolve) => {
      found = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The lookup reads the live row, then waits (as a slow query would) until the revocation
    // and the reload it starts are done.
    const here = service(feed, {
      beforeFound: async () => {
        found();
        await gate;
      },
    });
    await here.warm();
    // Created on an instance `here` does not hear from, so `here` must look the key up.
    const created = await service().create(accountId, { name: "raced", kind: "secret" });
    const lookup = here.identify(created.key);
    await lookupRead;
    await createApiKeysRepository(db.prisma).revoke(accountId, created.id, new Date());
    // The revocation's notice reaches `here`, whose reload finishes before the lookup does.
    const before = listed;
    feed.publish({ topic: "api-keys", accountId });
    await expect.poll(() => listed).toBe(before + 1);
    release();
    expect(await lookup).not.toBeNull();
    expect(await here.identify(created.key)).toBeNull();
  });
});
