/**
 * A feature that throws becomes null and an `unavailable` entry in the answer and the stored
 * screening: the rules that need it abstain, the others still judge, and nothing turns into a
 * 500 (which warden/client reads as "allow"). No real input is known to make a feature throw
 * (the fuzz suite and 300,000 generated IPs and emails found none), so the screening service
 * is built as the wiring builds it, on a real database, with one computation that throws:
 * the IP lookup, as it would if its data could not be read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../shared/schemas/rules.ts";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import { createLocalChangeFeed } from "../../db/change-feed.ts";
import type { Database } from "../../db/database.ts";
import { wirePolicy } from "../../wiring/policy.ts";
import { FEATURES, type FeatureFunctions } from "./features/event-features.ts";
import { createScreeningRepository } from "./screening.repository.ts";
import { createScreeningService } from "./screening.service.ts";
import { createScreeningBatches } from "./screening-batches.ts";

/** An address the offline data places in Great Britain, and a time zone that does not fit. */
const EVENT = {
  type: "signup" as const,
  email: "jane@example.com",
  ip: "81.2.69.142",
  timezone: "America/New_York",
};

describe.each(DB_KINDS)("a feature that throws (%s)", (kind) => {
  let db: Database;
  let accountId = "";
  const now = () => new Date();

  function screening(features: FeatureFunctions) {
    const { policy } = wirePolicy({ prisma: db.prisma, changes: createLocalChangeFeed(), now });
    return createScreeningService({
      batches: createScreeningBatches(createScreeningRepository(db.prisma, db.screeningSql)),
      policy,
      now,
      collector: { consume: async () => ({ status: "invalid", collected: null }) },
      digestKeyOf: () => "k".repeat(64),
      features,
    });
  }

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accountId = (await db.prisma.account.create({ data: {} })).id;
    const { rules } = wirePolicy({ prisma: db.prisma, changes: createLocalChangeFeed(), now });
    await rules.put(accountId, { ...DEFAULT_RULES, rule_timezone_mismatch: true });
  });
  afterAll(async () => {
    await db?.close();
  });

  it("judges the event with the feature null, says so in the answer and stores it", async () => {
    // With every feature, the time zone rule fires.
    const judged = await screening(FEATURES).screen(accountId, EVENT);
    expect(judged.reasons.map((reason) => reason.rule)).toContain("rule_timezone_mismatch");
    expect(judged.unavailable).toBeUndefined();

    const failing: FeatureFunctions = {
      ...FEATURES,
      lookupIp: () => {
        throw new Error("the IP table could not be read");
      },
    };
    const answer = await screening(failing).screen(accountId, EVENT);
    expect(answer.unavailable).toEqual([
      { feature: "geo", reason: "the IP table could not be read" },
    ]);
    // No country: the rule that needs it abstains; the event is still judged and stored.
    expect(answer.reasons.map((reason) => reason.rule)).not.toContain("rule_timezone_mismatch");
    expect(answer.decision).toBe("allow");
    const stored = await db.prisma.screening.findUniqueOrThrow({ where: { id: answer.id } });
    expect(stored).toMatchObject({
      country: null,
      unavailable: [{ feature: "geo", reason: "the IP table could not be read" }],
    });
  });
});
