/**
 * "Test on history" as a merchant uses it, in real Chromium: a charge that was refunded
 * later arrives through a signed webhook; on the Rules page the merchant turns a rule on
 * without it being saved, runs the test, sees the progress, then the charge in the result.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("Test on history in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  const charge = buildCharge({
    email: "later.refunded@example.com",
    riskScore: 88,
    riskLevel: "elevated",
    created: Math.floor(Date.now() / 1000) - 3 * 86_400,
  });

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("history@example.com"));
    const { path, webhookSecret } = await connectStripe(merchant);
    for (const event of [
      buildEvent("charge.succeeded", charge, { created: charge.created }),
      buildEvent(
        "charge.refunded",
        { ...charge, refunded: true, amount_refunded: charge.amount } as typeof charge,
        { created: charge.created + 3600 },
      ),
    ]) {
      expect((await deliver(t, path, event, webhookSecret)).status).toBe(200);
    }
  });
  afterAll(() => closeConsole({ t, browser }));

  it("runs an unsaved toggle over history: progress, then the refunded charge it would block", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByRole("heading", { name: "Test on history" }).waitFor();
    // The toggle is never saved: its save request is held until the end, then refused.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/trpc/rules.put**", async (route) => {
      await held;
      await route.abort();
    });
    // Status polls are slowed, so the running state stays on screen long enough to see.
    await page.route("**/trpc/backtest.status**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const highRisk = page.getByRole("switch", { name: "Too high risk level" });
    await page.getByText("Too high risk level").click();
    expect(await highRisk.isChecked()).toBe(true);

    await page.getByRole("button", { name: "Test on history" }).click();
    await page.getByRole("progressbar", { name: "Backtest progress" }).waitFor();
    const report = page.locator("[data-backtest-report]");
    await report.waitFor({ timeout: 20_000 });
    const row = page.locator(`[data-backtest-item="${charge.id}"]`);
    expect(await row.innerText()).toMatch(/refunded/);
    expect(await row.innerText()).toMatch(/Allow → Block/);
    expect(await row.innerText()).toMatch(/88/);
    expect(await page.locator("[data-newly-blocked]").innerText()).toMatch(
      /1 charges would be blocked; 1 of them were later refunded or disputed/,
    );
    // Nothing was saved, and the page fits 375 px without sideways scrolling.
    expect((await merchant.api.json<Record<string, unknown>>("/api/rules")).body).toMatchObject({
      rule_high_risk: false,
    });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "rules-test-on-history");
    release();
  });
});
