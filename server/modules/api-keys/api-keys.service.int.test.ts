/**
 * Authentication against the real repository and database, with its queries counted: a
 * made-up key must cost no query and evict no real key; a key another instance created a
 * moment ago (not yet announced here) is still found; a revocation on another instance is
 * heard through the change feed.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/helpers/databases.ts";
import { createLocalChangeFeed } from "../../db/change-feed.ts";
import type { Database } from "../../db/database.ts";
import { createApiKeysRepository } from "./api-keys.repository.ts";
import { createApiKeysService } from "./api-keys.service.ts";
import { createKeyTags } from "./key-tag.ts";

const tags = createKeyTags(randomBytes(32));
const log = { warn() {} };

describe("API key authentication (embedded)", () => {
  let db: Database;
  let accountId = "";
  const queries = { byHash: 0, listLive: 0 };

  function service(changes = createLocalChangeFeed()) {
    const real = createApiKeysRepository(db.prisma);
    const counted = {
      ...real,
      findLiveByHash(hash: string) {
        queries.byHash += 1;
        return real.findLiveByHash(hash);
      },
      listLive(account?: string) {
        queries.listLive += 1;
        return real.listLive(account);
      },
    };
    return createApiKeysService({
      repo: counted,
      changes,
      now: () => new Date(),
      tags,
      ratePerMinute: 1_000_000,
      log,
    });
  }

  beforeAll(async () => {
    db = await openTestDatabase("embedded");
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
});
