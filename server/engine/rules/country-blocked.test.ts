import { describe, expect, it } from "vitest";
import { charge, features, policy } from "../../../test/fixtures/engine.ts";
import { countryBlocked } from "./country-blocked.ts";

describe("rule_country_blocked", () => {
  it.each([
    { card: "NG", billing: "US", blocked: ["NG"], message: "card country NG is blocked" },
    { card: "US", billing: "BR", blocked: ["BR"], message: "billing country BR is blocked" },
    { card: "ng", billing: null, blocked: ["NG"], message: "card country NG is blocked" },
    { card: "NG", billing: "BR", blocked: ["BR", "NG"], message: "card country NG is blocked" },
    { card: "US", billing: "US", blocked: ["NG"], message: null },
    { card: null, billing: null, blocked: ["NG"], message: null },
    { card: "NG", billing: "NG", blocked: [], message: null },
  ])("card $card, billing $billing, blocked $blocked → $message", (row) => {
    const finding = countryBlocked.check(
      charge({ cardCountry: row.card, billingCountry: row.billing }),
      policy({}, { countries: row.blocked }),
      features(),
    );
    expect(finding?.message ?? null).toBe(row.message);
    if (finding) expect(finding.observed).toMatch(/^[A-Z]{2}$/);
  });
});
