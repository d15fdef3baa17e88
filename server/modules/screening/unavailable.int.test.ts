/**
 * A feature that could not be computed is kept with the screening, so the console can say
 * why a rule abstained: stored by the hot path's plain SQL, listed by the console's query.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { createScreeningRepository } from "./screening.repository.ts";
import { createScreeningHistoryService } from "./screening-history.service.ts";

describe.each(DB_KINDS)("unavailable features (%s)", (kind) => {
  let db: Database;
  let accountId = "";

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accountId = (await db.prisma.account.create({ data: {} })).id;
  });
  afterAll(async () => {
    await db?.close();
  });

  it("stores them with the screening and lists them; none is an empty list", async () => {
    const repo = createScreeningRepository(db.prisma, db.sql);
    const stored = (unavailable: { feature: string; reason: string }[], email: string) =>
      repo.store({
        accountId,
        createdAt: new Date(),
        type: "signup",
        userId: null,
        email,
        ip: "198.51.100.7",
        country: null,
        decision: "allow",
        score: 0,
        rules: [],
        reasons: [],
        monitored: [],
        input: { type: "signup", email },
        unavailable,
        blocked: false,
        identities: {
          values: { email: "e".repeat(32), ip: "i".repeat(32) },
          legacy: {},
          subject: null,
        },
      });
    await stored([{ feature: "geo", reason: "the IP table could not be read" }], "a@example.com");
    await stored([], "b@example.com");
    const list = await createScreeningHistoryService({ repo, now: () => new Date() }).list(
      accountId,
      {},
    );
    const byEmail = Object.fromEntries(list.items.map((row) => [row.email, row.unavailable]));
    expect(byEmail).toEqual({
      "a@example.com": [{ feature: "geo", reason: "the IP table could not be read" }],
      "b@example.com": [],
    });
  });
});
