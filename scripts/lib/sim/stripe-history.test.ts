/** A past charge becomes the Stripe events Warden's webhook would get for it, dated before the screening. */
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { refundAbuser } from "./refunds.ts";
import { rng } from "./rng.ts";
import { type PastCharge, stripeEventsOf } from "./stripe-history.ts";

const DAY = 86_400;
const NOW = 1_800_000_000;
const base: PastCharge = {
  id: "ch_sim_1",
  email: "jane.doe@gmail.com",
  card: "card_0123456789abcdef",
  amount: 4900,
  daysAgo: 30,
};
const summary = (event: Stripe.Event) => {
  const object = event.data.object as unknown as Record<string, unknown>;
  return {
    type: event.type,
    created: event.created,
    refunded: object.amount_refunded ?? null,
    reason: object.reason ?? null,
  };
};

describe("stripeEventsOf", () => {
  it.each([
    ["a purchase", base, [["charge.succeeded", NOW - 30 * DAY, 0, null]]],
    [
      "a full refund 3 days later",
      { ...base, refund: { amount: 4900, after: 3 } },
      [
        ["charge.succeeded", NOW - 30 * DAY, 0, null],
        ["charge.refunded", NOW - 27 * DAY, 4900, null],
      ],
    ],
    [
      "a partial refund (a downgrade)",
      { ...base, refund: { amount: 2450, after: 1 } },
      [
        ["charge.succeeded", NOW - 30 * DAY, 0, null],
        ["charge.refunded", NOW - 29 * DAY, 2450, null],
      ],
    ],
    [
      "a chargeback 20 days later",
      { ...base, dispute: { reason: "product_not_received", after: 20 } },
      [
        ["charge.succeeded", NOW - 30 * DAY, 0, null],
        ["charge.dispute.created", NOW - 10 * DAY, null, "product_not_received"],
      ],
    ],
  ] as const)("%s", (_name, past, expected) => {
    expect(stripeEventsOf(past, NOW).map(summary)).toEqual(
      expected.map(([type, created, refunded, reason]) => ({ type, created, refunded, reason })),
    );
  });

  it("the charge carries the email and the card fingerprint the screening sends", () => {
    const [succeeded] = stripeEventsOf(base, NOW);
    const charge = succeeded?.data.object as Stripe.Charge;
    expect(charge.billing_details.email).toBe(base.email);
    expect(charge.payment_method_details?.card?.fingerprint).toBe(base.card);
  });

  it("event ids are unique per charge and stable (a redelivery is a duplicate, not a new event)", () => {
    const past = {
      ...base,
      refund: { amount: 4900, after: 3 },
      dispute: { reason: "x", after: 5 },
    };
    const ids = stripeEventsOf(past, NOW).map((e) => e.id);
    expect(new Set(ids).size).toBe(3);
    expect(stripeEventsOf(past, NOW + 60).map((e) => e.id)).toEqual(ids);
  });
});

describe("refund abusers' history", () => {
  it("every abuser has 2+ refunds or a dispute within 180 days, delivered before their first screening", () => {
    const r = rng(22);
    for (let n = 0; n < 50; n++) {
      const events = refundAbuser.group(r, n, 0, 3_600_000).sort((a, b) => a.at - b.at);
      const history = events[0]?.history ?? [];
      expect(events.slice(1).every((e) => !e.history)).toBe(true);
      const recent = history.filter((past) => past.daysAgo <= 180);
      const refunds = recent.filter((past) => past.refund).length;
      const disputes = recent.filter((past) => past.dispute).length;
      expect(refunds >= 2 || disputes >= 1, JSON.stringify(history)).toBe(true);
    }
  });
});
