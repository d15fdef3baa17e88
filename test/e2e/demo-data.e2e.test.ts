import { describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { useConsole } from "../helpers/console-browser.ts";

describe("demo data and Test on history in Chromium", () => {
  const c = useConsole("demo-e2e@example.com");

  const demoCharges = () =>
    c.t.prisma.transaction.count({ where: { accountId: c.merchant.accountId, demo: true } });
  const overflow = () =>
    c.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );

  it("says what loading does, loads only when confirmed, and removes it again", async () => {
    await c.page.setViewportSize({ width: 1280, height: 900 });
    await c.page.goto(`${c.t.baseUrl}/homepage`);
    await c.page.getByRole("button", { name: "Load demo data…" }).click();
    const confirm = c.page.locator("[data-demo-confirm]");
    await confirm.getByText("Turns on 4 rules").waitFor();
    const text = await confirm.innerText();
    expect(text).toContain(
      "Adds 34 sample Stripe charges from the last 14 days (2 of them failed) and 2 fraud labels from Stripe; no screenings.",
    );
    for (const rule of [
      "Too high risk level with threshold",
      "Country blocked",
      "Block disposable or low-reputation emails",
      "Early Fraud Warning Detection",
    ]) {
      expect(text).toContain(rule);
    }
    expect(text).toContain("Adds Nigeria (NG) to your blocked countries.");
    expect(text).toContain("Saves a demo Stripe signing secret (you have none yet).");
    expect(text).toContain("Sends nothing to your decision webhooks");
    await screenshot(c.page, "demo-load-confirm");
    // Asking loaded nothing; Cancel neither.
    await c.page.getByRole("button", { name: "Cancel" }).click();
    expect(await demoCharges()).toBe(0);

    await c.page.getByRole("button", { name: "Load demo data…" }).click();
    await c.page.getByRole("button", { name: "Load demo data", exact: true }).click();
    const bar = c.page.locator("[data-demo-bar]");
    await bar.getByText("This account holds 34 demo charges.").waitFor({ timeout: 20_000 });
    expect(await demoCharges()).toBe(34);
    await c.page.setViewportSize({ width: 375, height: 812 });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(c.page, "demo-loaded-375");
    await c.page.setViewportSize({ width: 1280, height: 900 });

    await bar.getByRole("button", { name: "Remove demo data…" }).click();
    const removeConfirm = c.page.locator("[data-demo-remove-confirm]");
    expect(await removeConfirm.innerText()).toContain(
      "Deletes the 34 demo charges with their reviews, labels and Stripe events (your own charges stay)",
    );
    await screenshot(c.page, "demo-remove-confirm");
    await removeConfirm.getByRole("button", { name: "Remove demo data", exact: true }).click();
    const done = c.page.locator("[data-demo-removed]");
    await done.waitFor({ timeout: 10_000 });
    expect(await done.innerText()).toMatch(
      /^Removed 34 demo charges( \(\d+ with a review\))?, 2 labels and 37 Stripe events\./,
    );
    expect(await done.innerText()).toContain("Turned off again: ");
    expect(await done.innerText()).toContain("No longer blocked: Nigeria.");
    await c.page.getByText("No transactions found.").waitFor();
    expect(await demoCharges()).toBe(0);
    await screenshot(c.page, "demo-removed");
  });

  it("says when Test on history ran and with which settings, and marks itself stale once they are saved", async () => {
    await c.page.goto(`${c.t.baseUrl}/homepage/rules`);
    await c.page.getByRole("button", { name: "Test on history" }).click();
    const used = c.page.locator("[data-backtest-used]");
    await c.page.locator("[data-backtest-report]").waitFor({ timeout: 20_000 });
    expect(await used.innerText()).toMatch(
      /^Tested (just now|\d+ min ago) with the settings saved at \d\d:\d\d\.$/,
    );
    const stale = c.page.locator("[data-backtest-stale]");
    expect(await stale.count()).toBe(0);

    // A switch turned on (saved by itself): the result says it is stale.
    await c.page.getByText("One trial per device/IP/email").click();
    await stale.waitFor({ timeout: 10_000 });
    expect(await stale.innerText()).toMatch(/^Settings changed since this test/);
    expect(await c.page.locator(".backtest-report.stale").count()).toBe(1);
    await c.page.setViewportSize({ width: 375, height: 812 });
    await stale.scrollIntoViewIfNeeded();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(c.page, "rules-test-on-history-stale-375");
    await c.page.setViewportSize({ width: 1280, height: 900 });

    // Run again: fresh.
    await stale.getByRole("button", { name: "Run again" }).click();
    await expect.poll(() => stale.count(), { timeout: 20_000 }).toBe(0);
    await c.page.locator("[data-backtest-report]:not(.stale)").waitFor();
  });
});
