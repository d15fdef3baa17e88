/** Connecting Stripe and importing history from the Settings page, in real Chromium. */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { TEST_SECRET_KEY } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("Stripe in Settings, in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("settings-stripe@example.com"));
  });
  afterAll(() => closeConsole({ t, browser }));

  it("shows the account's webhook URL read-only and names a key Stripe rejects", async () => {
    t.stripe.acceptKeys(TEST_SECRET_KEY);
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const url = page.locator('input[name="stripe_webhook_url"]');
    await url.waitFor();
    expect(await url.inputValue()).toMatch(/\/webhooks\/stripe\/[0-9a-f-]{36}$/);
    expect(await url.getAttribute("readonly")).not.toBeNull();

    await page.locator('input[name="stripe_secret"]').fill("sk_test_notAKeyStripeKnows");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page
      .getByText(/Stripe rejected this key/)
      .first()
      .waitFor();

    await page.locator('input[name="stripe_secret"]').fill(TEST_SECRET_KEY);
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Settings saved!").waitFor();
  });

  it("imports past charges with visible progress and the result", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 120; i++) {
      const charge = buildCharge({ created: now - i * 1800 });
      t.stripe.charges.set(charge.id, charge);
    }
    await page.reload();
    await page.getByRole("button", { name: "Import past charges" }).click();
    await page
      .getByText("Imported 120 charges from the last 90 days.")
      .waitFor({ timeout: 20_000 });
    expect(await page.locator("progress").getAttribute("value")).toBe("100");
    await screenshot(page, "settings-import");
    expect(await t.prisma.transaction.count({ where: { accountId: merchant.accountId } })).toBe(
      120,
    );
  });
});
