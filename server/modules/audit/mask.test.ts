import { describe, expect, it } from "vitest";
import { masked, PASSWORD_MASK } from "./mask.ts";

describe("masked", () => {
  it.each([
    {
      name: "a password keeps nothing, not even its last characters",
      value: { currentPassword: "correct horse battery", password: "new horse battery" },
      want: { currentPassword: PASSWORD_MASK, password: PASSWORD_MASK },
    },
    {
      name: "a field named like a secret keeps its last four characters",
      value: { stripe_secret: "sk_test_51abcdefWXYZ", stripe_webhook_secret: "whsec_abc1234" },
      want: { stripe_secret: "••••WXYZ", stripe_webhook_secret: "••••1234" },
    },
    {
      name: "a value shaped like a key is masked wherever it sits",
      value: { note: "wdn_sk_0123456789abcdef", list: ["rk_live_zzzz9876", "plain"] },
      want: { note: "••••cdef", list: ["••••9876", "plain"] },
    },
    {
      name: "everything else is kept as it was, dates as ISO text",
      value: { app_name: "Shop", limit: 3, on: true, at: new Date("2026-11-26T00:00:00Z") },
      want: { app_name: "Shop", limit: 3, on: true, at: "2026-11-26T00:00:00.000Z" },
    },
    { name: "an empty secret stays empty", value: { api_key: "" }, want: { api_key: "" } },
  ])("$name", ({ value, want }) => {
    expect(masked(value)).toEqual(want);
  });
});
