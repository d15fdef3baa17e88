/**
 * Identity digests keyed per account (decision 013), over real HTTP: what is stored cannot be
 * joined across accounts nor matched to a plain SHA-256 of the value, and rows stored before
 * keyed digests (unkeyed, `keyed` false, kept up to 400 days) still count, once per person.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyDigest } from "../../server/modules/screening/features/identities.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("keyed identity digests (%s)", (kind) => {
  let t: TestApp;
  let a: Merchant;
  let b: Merchant;
  let backendA: Backend;
  let backendB: Backend;

  /** A counting row as Warden stored it before keyed digests. */
  const legacyRow = (merchant: Merchant, device: string, user: string) =>
    t.prisma.screeningIdentity.create({
      data: {
        accountId: merchant.accountId,
        screeningId: `legacy-${device}-${user}`,
        kind: "device",
        value: legacyDigest("device", device),
        type: "signup",
        at: new Date(t.clock.now().getTime() - 60_000),
        subject: legacyDigest("user", user),
        userId: legacyDigest("user", user),
        blocked: false,
      },
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    a = await signedInMerchant(t, `digests-a-${kind}@example.com`);
    b = await signedInMerchant(t, `digests-b-${kind}@example.com`);
    for (const merchant of [a, b]) {
      await turnOn(merchant, "rule_device_fingerprint_reuse");
      const put = await merchant.api.json("/api/rule-settings", {
        method: "PUT",
        body: { rule_device_fingerprint_reuse: { max_users_per_device: 1, window_days: 30 } },
      });
      expect(put.status).toBe(200);
    }
    // Rows from before keyed digests are there before Warden (upgraded) starts screening:
    // none can be stored later.
    await legacyRow(a, "old-device", "old-user");
    await legacyRow(a, "mixed-device", "returning-user");
    backendA = await backendOf(t, a);
    backendB = await backendOf(t, b);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores keyed digests that differ between accounts and from the plain SHA-256", async () => {
    await backendA.decide({ type: "signup", user_id: "same-user", device_id: "same-device" });
    await backendB.decide({ type: "signup", user_id: "same-user", device_id: "same-device" });
    const stored = await t.prisma.screeningIdentity.findMany({
      where: { kind: "device", accountId: { in: [a.accountId, b.accountId] }, keyed: true },
      select: { accountId: true, value: true, subject: true },
    });
    expect(stored).toHaveLength(2);
    const [first, second] = stored;
    expect(first?.value).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.value).not.toBe(second?.value);
    expect(first?.subject).not.toBe(second?.subject);
    for (const row of stored) expect(row.value).not.toBe(legacyDigest("device", "same-device"));
  });

  it("counts a row stored before keyed digests (found by its unkeyed digest)", async () => {
    const answer = await backendA.decide({
      type: "signup",
      user_id: "new-user",
      device_id: "old-device",
    });
    expect(answer.decision).toBe("block");
    expect(answer.reasons[0]).toMatchObject({ rule: "rule_device_fingerprint_reuse", observed: 2 });
  });

  it("counts one person once, whether their rows were stored keyed or not", async () => {
    // The same user again, now stored keyed: still one user on the device (the limit is 1).
    const again = await backendA.decide({
      type: "signup",
      user_id: "returning-user",
      device_id: "mixed-device",
    });
    expect(again.decision).toBe("allow");
    // A second person: two users, not three (the legacy and keyed rows are one person).
    const other = await backendA.decide({
      type: "signup",
      user_id: "someone-else",
      device_id: "mixed-device",
    });
    expect(other.reasons[0]).toMatchObject({ rule: "rule_device_fingerprint_reuse", observed: 2 });
  });
});
