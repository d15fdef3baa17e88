/**
 * Screenings are kept for the retention period (SCREENING_RETENTION_DAYS, default 90); their
 * hashed counting rows for the longest window a rule looks back (a trial: 365 days), and
 * request events' rows for a day. The hashed rows hold no email or IP.
 */
import { describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";
import { trialFrom } from "./trials.ts";

const DAY = 86_400_000;

describe.each(DB_KINDS)("screening retention (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, { env: { SCREENING_RETENTION_DAYS: "30" } }, (app) => {
    t = app;
  });

  it("purges screenings past retention but still knows the device's trial a year on", async () => {
    const merchant = await signedInMerchant(t, `retention-${kind}@example.com`);
    await turnOn(merchant, "rule_ip");
    const backend = await backendOf(t, merchant);
    await trialFrom(backend, "dev-old", "old@example.com", "192.0.2.90");
    await backend.decide({ type: "request", ip: "192.0.2.90" });
    const identities = await t.prisma.screeningIdentity.findMany({
      where: { accountId: merchant.accountId },
    });
    expect(identities.length).toBeGreaterThan(3);
    const stored = JSON.stringify(identities, (_key, value) =>
      typeof value === "bigint" ? String(value) : value,
    );
    for (const secret of ["dev-old", "old@example.com", "192.0.2.90"])
      expect(stored).not.toContain(secret);

    t.clock.advance(31 * DAY);
    const removed = await t.app.services.housekeeping.purgeExpired();
    expect(removed.screenings).toBeGreaterThanOrEqual(2);
    expect(await t.prisma.screening.count({ where: { accountId: merchant.accountId } })).toBe(0);
    const left = await t.prisma.screeningIdentity.findMany({
      where: { accountId: merchant.accountId },
    });
    expect(left.every((row) => row.type === "trial_start")).toBe(true);
    expect(left.length).toBeGreaterThan(0);

    t.clock.advance(300 * DAY);
    const again = await backend.decide({
      type: "trial_start",
      device_id: "dev-old",
      email: "new@example.com",
    });
    // A second account's trial on the device is reviewed (a family may share it; the third is
    // blocked): it is flagged only because the first trial's device row outlived its screening.
    expect(again).toMatchObject({
      decision: "review",
      reasons: [
        {
          rule: "rule_ip",
          message: expect.stringMatching(/a second account's trial on this device \(dev-old\)/),
        },
      ],
    });
  });
});
