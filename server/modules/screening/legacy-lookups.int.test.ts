/**
 * Legacy lookups only where they can find something (decisions 013 and 016): an account whose
 * counting rows are all keyed is asked no lookup by unkeyed digest once that is known; an
 * account that still holds rows from before keyed digests keeps both, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import type { SqlRunner } from "../../db/sql-runner.ts";
import { identitiesOf, legacyDigest } from "./features/identities.ts";
import type { Probe } from "./probes.ts";
import { type CountRequest, createScreeningRepository } from "./screening.repository.ts";
import type { CountItem } from "./screening.sql.ts";

const KEY = "l".repeat(64);

/** The legacy digest a probe was sent with (a keyed batch's probes have none). */
const legacyOf = (item: CountItem | undefined) => item?.l ?? null;

describe.each(DB_KINDS)("legacy lookups (%s)", (kind) => {
  let db: Database;
  /** The probes each COUNT was sent, as the database received them. */
  let sent: CountItem[][] = [];
  let repo: ReturnType<typeof createScreeningRepository>;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    const sql = db.screeningSql;
    // The real runner, noting what COUNT is sent.
    const noting: SqlRunner = {
      ...sql,
      prepared(name, text, params) {
        if (name.includes("screen-count")) sent.push(JSON.parse(params[0] as string));
        return sql.prepared(name, text, params);
      },
    };
    repo = createScreeningRepository(db.prisma, noting);
  });
  afterAll(async () => {
    await db?.close();
  });

  function request(accountId: string, device: string): CountRequest {
    const ids = identitiesOf(
      { type: "signup", userId: "u", email: null, ip: null, deviceId: device } as never,
      { normalizedEmail: null, ipKey: null, subnetKey: null, disposable: false },
      KEY,
    );
    const probe: Probe = {
      name: "usersOn.device",
      kind: "device",
      value: ids.values.device as string,
      legacy: ids.legacy.device,
      since: new Date(Date.now() - 86_400_000),
      measure: "distinctSubject",
      except: ids.subject,
    };
    return { accountId, key: KEY, probes: [probe], history: null };
  }

  /** The legacy digest each of `accountId`'s counts sent, from the first count on. */
  async function legacySent(accountId: string, device: string) {
    sent = [];
    await repo.countBatch([request(accountId, device)]);
    // The account is asked about in the background: counts after that know the answer.
    await expect
      .poll(async () => {
        await repo.countBatch([request(accountId, device)]);
        return legacyOf(sent.at(-1)?.[0]);
      })
      .toSatisfy((l) => l === null || sent.length > 3);
    return sent.map((items) => legacyOf(items[0]));
  }

  it("drops the legacy lookup for an account with only keyed rows", async () => {
    const account = await db.prisma.account.create({ data: {} });
    const legacy = await legacySent(account.id, "keyed-only");
    // The first count is sent before the answer is known: both lookups.
    expect(legacy[0]).toBe(legacyDigest("device", "keyed-only"));
    expect(legacy.at(-1)).toBeNull();
  });

  it("keeps it for an account that still holds rows from before keyed digests", async () => {
    const account = await db.prisma.account.create({ data: {} });
    await db.prisma.screeningIdentity.create({
      data: {
        accountId: account.id,
        screeningId: "legacy-1",
        kind: "device",
        value: legacyDigest("device", "old"),
        type: "signup",
        at: new Date(),
        subject: legacyDigest("user", "old-user"),
        blocked: false,
      },
    });
    const legacy = await legacySent(account.id, "old");
    expect(legacy.length).toBeGreaterThan(3);
    for (const l of legacy) expect(l).toBe(legacyDigest("device", "old"));
    // And the legacy row is counted (another user than this request's).
    const [counted] = await repo.countBatch([request(account.id, "old")]);
    expect(counted?.answers[0]).toBe(1);
  });
});
