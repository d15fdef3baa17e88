/**
 * "Test on history" as a merchant uses it, in real Chromium: a charge that was refunded
 * later arrives through a signed webhook; on the Rules page the merchant turns a rule on
 * without it being saved, runs the test, sees the progress, then the charge in the result.
 * Then a rule's Settings form edited and not saved: the test runs the edit (and says so),
 * the saved value stays, and an edit that does not validate is not run. With PostgreSQL too
 * (TEST_DATABASE_URL), where the job runs in a process of its own.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";

/** What the result says it ran: the saved settings (and when: the day too when that was not today, as at midnight in the tests' Tokyo time), and the unsaved edit. */
const UNSAVED_RUN =
  /^Tested (just now|\d+ min ago) with the settings saved at (?:[A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d, with unsaved changes to Signup velocity \(Signups per IP per hour 1\)\.$/;

describe.each(DB_KINDS)("Test on history in Chromium (%s)", (kind) => {
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
    ({ t, merchant, browser, page } = await openConsole("history@example.com", kind));
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
    // The chart's axis is the window's 30 UTC days (today included, as the dashboard's): the
    // one changed day is one narrow bar, at its date (3 days before today), not a bar across
    // the whole chart.
    const bars = page.getByRole("img", { name: "Changed decisions per day" }).locator("rect");
    const bar = { x: Number(await bars.first().getAttribute("x")), width: 600 / 30 };
    expect(await bars.first().getAttribute("width")).toBe(String(bar.width - 2));
    expect(Math.round((bar.x - 1) / bar.width)).toBe(29 - 3);
    // Nothing was saved, and the page fits 375 px without sideways scrolling.
    expect((await merchant.api.json<Record<string, unknown>>("/api/rules")).body).toMatchObject({
      rule_high_risk: false,
    });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(
      page,
      kind === "embedded" ? "rules-test-on-history" : `rules-test-on-history-${kind}`,
    );
    release();
  });

  it("runs a rule's unsaved Settings form, says so, and leaves the saved value alone", async () => {
    // Three signups from one IP within minutes: allowed live under the saved 5 per hour.
    await turnOn(merchant, "rule_signup_velocity");
    const backend = await backendOf(t, merchant);
    const signups: string[] = [];
    // The app's clock stands still: each signup a minute later, the test a minute after them
    // (the window ends, exclusive, at the test's start).
    for (const n of [1, 2, 3]) {
      t.clock.advance(60_000);
      const answer = await backend.decide({
        type: "signup",
        user_id: `velo${n}`,
        ip: "198.51.100.20",
      });
      expect(answer.decision).toBe("allow");
      signups.push(answer.id);
    }
    t.clock.advance(60_000);
    const tab = await browser.newPage();
    const starts: string[] = [];
    tab.on("request", (request) => {
      if (request.url().includes("/trpc/backtest.start")) starts.push(request.url());
    });
    await tab.goto(`${t.baseUrl}/homepage/rules`);
    const testButton = tab.getByRole("button", { name: "Test on history" });
    const used = tab.locator("[data-backtest-used]");
    const report = tab.locator("[data-backtest-report]");
    const runTest = async (label: RegExp) => {
      await testButton.click();
      await expect.poll(() => used.innerText(), { timeout: 10_000 }).toMatch(label);
      await report.waitFor({ timeout: 20_000 });
    };

    // The saved settings: nothing about these signups changes.
    await runTest(
      /^Tested (just now|\d+ min ago) with the settings saved at (?:[A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d\.$/,
    );
    for (const id of signups)
      expect(await tab.locator(`[data-backtest-item="${id}"]`).count()).toBe(0);

    // One signup per IP per hour, typed in the form and not saved.
    await tab.getByRole("button", { name: "Settings for Signup velocity" }).click();
    const form = tab.getByRole("form", { name: "Signup velocity settings" });
    const perIp = form.getByLabel("Signups per IP per hour");
    expect(await perIp.inputValue()).toBe("5");
    await perIp.fill("1");
    await runTest(UNSAVED_RUN);
    // Unlike the saved settings' run: the second signup would be blocked.
    const second = tab.locator(`[data-backtest-item="${signups[1]}"]`);
    expect(await second.count(), "the unsaved limit changes the second signup").toBe(1);
    expect(await second.innerText()).toMatch(/Allow → Block/);
    expect(await tab.locator(`[data-backtest-item="${signups[0]}"]`).count()).toBe(0);
    await screenshot(
      tab,
      `rules-test-on-history-unsaved-settings${kind === "embedded" ? "" : `-${kind}`}`,
    );

    // Nothing was saved: the API and a reload show the old value.
    const stored =
      await merchant.api.json<Record<string, Record<string, unknown>>>("/api/rule-settings");
    expect(stored.body.rule_signup_velocity?.per_ip_per_hour).toBe(5);
    await tab.reload();
    // The last run's result still says which settings it tried.
    await expect.poll(() => used.innerText(), { timeout: 10_000 }).toMatch(UNSAVED_RUN);
    await report.waitFor();
    await tab.getByRole("button", { name: "Settings for Signup velocity" }).click();
    expect(await perIp.inputValue()).toBe("5");

    // A draft that does not validate is the form's field error; no backtest is started.
    const before = starts.length;
    await perIp.fill("0");
    await testButton.click();
    await form.getByText("must be at least 1").waitFor();
    expect(await tab.getByRole("alert").filter({ hasText: "Not started" }).count()).toBe(1);
    expect(starts.length).toBe(before);
    // Fixing it clears the error.
    await perIp.fill("2");
    expect(await form.getByText("must be at least 1").count()).toBe(0);

    // Should the server still refuse a value (the request is altered on its way here), its
    // 400 is shown above the button and in the form, under the field it names.
    await tab.route("**/trpc/backtest.start**", (route) =>
      route.continue({
        postData: (route.request().postData() ?? "").replace(
          '"per_ip_per_hour":2',
          '"per_ip_per_hour":0',
        ),
      }),
    );
    await testButton.click();
    await tab
      .getByRole("alert")
      .filter({ hasText: "rule_settings.rule_signup_velocity.per_ip_per_hour" })
      .waitFor();
    await form.getByText("must be at least 1").waitFor();
    await tab.close();
  });
});
