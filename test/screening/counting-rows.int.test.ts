/**
 * A screening stores only the counting rows some probe can count (decision 018; derived from
 * the rules' declarations, probes.ts countable), over real HTTP: a request's subnet and its
 * user (no card) are counted by nothing, so they are not stored; a signup keeps its subnet
 * (and, from a hosting network, its AS number); a signup and a login keep their user (a
 * referrer's first sighting is read from them); a referral keeps its referrer.
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
      "a signup: its subnet and its user too, not its network (a consumer address)",
      { type: "signup", ip: "81.2.69.161", user_id: "u-2", email: "ann@gmail.com" },
      ["email", "ip", "subnet", "user"],
    ],
    [
      "a signup with a company's own domain: the domain, and the domain on this /24 (new-domain counts)",
      { type: "signup", ip: "81.2.69.161", user_id: "u-6", email: "ann@example.com" },
      ["domain", "domainNet", "email", "ip", "subnet", "user"],
    ],
    [
      "a login with a company's own domain: no domain rows (only signups count them)",
      { type: "login", ip: "81.2.69.161", user_id: "u-7", email: "bob@example.com" },
      ["email", "ip", "user"],
    ],
    [
      "a signup from a hosting network (Scaleway): its network (AS number) too",
      { type: "signup", ip: "51.15.0.1", user_id: "u-5" },
      ["ip", "network", "subnet", "user"],
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
      "a promo redemption: its promo code, not its user (only signups and logins date an account), no card",
      { type: "promo_redemption", user_id: "u-4", promo_code: "SPRING" },
      ["promo"],
    ],
    [
      "a referral: its referrer too, not its subnet nor its user",
      { type: "referral", ip: "81.2.69.163", user_id: "u-6", referrer_user_id: "u-2" },
      ["ip", "referrer"],
    ],
  ] as const)("%s", async (_name, input, kinds) => {
    const answer = await backend.decide(input as never);
    expect(await kindsOf(answer.id)).toEqual(kinds);
  });
});
