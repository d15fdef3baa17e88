import { describe, expect, it } from "vitest";
import { buildCharge } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { useConsole } from "../helpers/console-browser.ts";
import { TEST_SECRET_KEY } from "../helpers/stripe-webhooks.ts";

describe("Stripe in Settings, in Chromium", () => {
  const c = useConsole("settings-stripe@example.com");

  it("shows the account's webhook URL read-only and names a key Stripe rejects", async () => {
    c.t.stripe.acceptKeys(TEST_SECRET_KEY);
    await c.page.goto(`${c.t.baseUrl}/homepage/settings`);
    const url = c.page.locator('input[name="stripe_webhook_url"]');
    await url.waitFor();
    expect(await url.inputValue()).toMatch(/\/webhooks\/stripe\/[0-9a-f-]{36}$/);
    expect(await url.getAttribute("readonly")).not.toBeNull();

    await c.page.locator('input[name="stripe_secret"]').fill("sk_test_notAKeyStripeKnows");
    await c.page.getByRole("button", { name: "Save Settings" }).click();
    await c.page
      .getByText(/Stripe rejected this key/)
      .first()
      .waitFor();

    await c.page.locator('input[name="stripe_secret"]').fill(TEST_SECRET_KEY);
    await c.page.getByRole("button", { name: "Save Settings" }).click();
    await c.page.getByText("Settings saved!").waitFor();
  });

  it("imports past charges with visible progress and the result", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 120; i++) {
      const charge = buildCharge({ created: now - i * 1800 });
      c.t.stripe.charges.set(charge.id, charge);
    }
    await c.page.reload();
    await c.page.getByRole("button", { name: "Import past charges" }).click();
    await c.page
      .getByText("Imported 120 charges from the last 90 days.")
      .waitFor({ timeout: 20_000 });
    expect(await c.page.locator("progress").getAttribute("value")).toBe("100");
    await screenshot(c.page, "settings-import");
    expect(await c.t.prisma.transaction.count({ where: { accountId: c.merchant.accountId } })).toBe(
      120,
    );
  });
});
