/**
 * A screening stores only the counting rows some probe can count (decision 018), over real
 * HTTP: a request's subnet and its user without a card are counted by nothing, so they are
 * not stored; a signup keeps its subnet, a checkout with a card keeps its user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(DB_KINDS)("counting rows stored (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;

  beforeAll(async () => {
    t = await startTestApp(kind);
    merchant = await signedInMerchant(t, `counting-rows-${kind}@example.com`);
    backend = await backendOf(t, merchant);
  });
  afterAll(async () => {
    await t?.close();
  });

  const kindsOf = async (screeningId: string) =>
    (
      await t.prisma.screeningIdentity.findMany({
        where: { accountId: merchant.accountId, screeningId },
        select: { kind: true },
      })
    )
      .map((row) => row.kind)
      .sort();

  it.each([
    [
      "a request: its address and device, not its subnet nor its user (no card)",
      { type: "request", ip: "81.2.69.160", user_id: "u-1", device_id: "d-1" },
      ["device", "ip"],
    ],
    [
      "a signup: its subnet too, not its user (no card)",
      { type: "signup", ip: "81.2.69.161", user_id: "u-2", email: "ann@example.com" },
      ["email", "ip", "subnet"],
    ],
    [
      "a checkout with a card: its user too, not its subnet nor its promo code",
      {
        type: "checkout",
        ip: "81.2.69.162",
        user_id: "u-3",
        card_fingerprint: "fp-3",
        promo_code: "SPRING",
      },
      ["card", "ip", "user"],
    ],
    [
      "a promo redemption: its promo code, not its user (no card)",
      { type: "promo_redemption", user_id: "u-4", promo_code: "SPRING" },
      ["promo"],
    ],
  ] as const)("%s", async (_name, input, kinds) => {
    const answer = await backend.decide(input as never);
    expect(await kindsOf(answer.id)).toEqual(kinds);
  });
});
