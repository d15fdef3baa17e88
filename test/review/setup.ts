/** Setup the review tests share. */
import { expect } from "vitest";
import type { Merchant } from "../helpers/merchants.ts";
import { turnOn } from "../helpers/screening.ts";

/** Turns on the high-risk rule and has it answer review, so an elevated Stripe charge is queued. */
export async function reviewHighRiskCharges(merchant: Merchant) {
  await turnOn(merchant, "rule_high_risk");
  const put = await merchant.api.json("/api/rule-settings", {
    method: "PUT",
    body: { rule_high_risk: { action: "review" } },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}
