/**
 * Two Warden instances on one PostgreSQL: a settings change made through one reaches the
 * other's cached policy through LISTEN/NOTIFY, without waiting for the cache to age out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import { signedInMerchant } from "../../../test/helpers/merchants.ts";
import { startTestApp, type TestApp } from "../../../test/helpers/test-app.ts";
import type { Database } from "../../db/database.ts";

describe.runIf(DB_KINDS.includes("postgres"))("policy cache across instances (postgres)", () => {
  let database: Database;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    first = await startTestApp("postgres", { database });
    second = await startTestApp("postgres", { database });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  it("drops the other instance's cached policy when rules change", async () => {
    const merchant = await signedInMerchant(first, "two-instances@example.com");
    const before = await second.app.services.policy.load(merchant.accountId);
    expect(before.rules.rule_efw).toBe(false);
    const rules = (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;
    const put = await merchant.api.json("/api/rules", {
      method: "PUT",
      body: { ...rules, rule_efw: true },
    });
    expect(put.status).toBe(200);
    await expect
      .poll(
        async () => (await second.app.services.policy.load(merchant.accountId)).rules.rule_efw,
        {
          timeout: 5000,
        },
      )
      .toBe(true);
  });

  it("drops it when the block list changes", async () => {
    const merchant = await signedInMerchant(first, "two-instances-2@example.com");
    expect((await second.app.services.policy.load(merchant.accountId)).blocklist.countries).toEqual(
      [],
    );
    const put = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: ["NG"], email_providers: [] },
    });
    expect(put.status).toBe(200);
    await expect
      .poll(
        async () => (await second.app.services.policy.load(merchant.accountId)).blocklist.countries,
        {
          timeout: 5000,
        },
      )
      .toEqual(["NG"]);
  });
});
