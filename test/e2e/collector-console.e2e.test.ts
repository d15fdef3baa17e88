/**
 * What the console shows of the browser collector and of monitor mode, in Chromium: a
 * screening's row detail names the IP warden.js saw beside the backend's, a rule in monitor
 * mode reads "would have blocked", and the API docs list the screening and collect endpoints
 * with their examples at both /api/docs and /api/docs/.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { allowOrigins, publishableKeyOf, tokenFor } from "../helpers/collector.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("collector and monitor mode in the console", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("collector-console@example.com"));
  });
  afterAll(() => closeConsole({ t, browser }));

  it("shows the collect IP beside the backend's, and a monitored block as 'would have blocked'", async () => {
    await turnOn(merchant, "rule_signup_velocity");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_signup_velocity: { action: "block", mode: "monitor", per_ip_per_hour: 1 } },
    });
    expect(put.status).toBe(200);
    await allowOrigins(merchant, ["https://shop.example.com"]);
    const backend = await backendOf(t, merchant);
    const pk = (await publishableKeyOf(merchant)).key;
    await backend.decide({ type: "signup", email: "first@example.com", ip: "203.0.113.50" });
    const second = await backend.decide({
      type: "signup",
      email: "second@example.com",
      ip: "203.0.113.50",
      signals: await tokenFor(t, pk),
    });
    expect(second).toMatchObject({ decision: "allow", signals: "accepted" });
    expect(second.monitored).toEqual([
      expect.objectContaining({ rule: "rule_signup_velocity", action: "block" }),
    ]);

    await page.goto(`${t.baseUrl}/homepage/screenings`);
    const rows = page.locator("tbody tr[data-screening]");
    await expect.poll(() => rows.count()).toBe(2);
    const row = rows.filter({ hasText: "second@example.com" });
    await row.getByRole("button").click();
    const monitored = page.getByRole("list", { name: "Monitored rules" });
    expect(await monitored.innerText()).toContain("would have blocked");
    expect(await row.innerText()).toContain("Allowed");
    const collectIp = page.locator("[data-collect-ip]");
    expect(await collectIp.innerText()).toMatch(/127\.0\.0\.1/);
    expect(await page.locator(".sc-collect").innerText()).toContain(
      "your backend sent 203.0.113.50",
    );
    await screenshot(page, "collector-screening-row");
  });

  it.each(["/api/docs", "/api/docs/"])(
    "lists the screening and collect operations at %s",
    async (path) => {
      const docs = await browser.newPage();
      await docs.goto(`${t.baseUrl}${path}`);
      await docs.locator(".swagger-ui .info .title").filter({ hasText: "Warden API" }).waitFor();
      for (const operation of ["/api/v1/screen", "/api/v1/collect", "/api/rules"]) {
        await docs
          .locator(".opblock-summary-path")
          .filter({ hasText: operation })
          .first()
          .waitFor();
      }
      // By the exact path: /api/v1/screen is also the start of /api/v1/screenings/{id}.
      await docs.locator('.opblock-summary-path[data-path="/api/v1/collect"]').click();
      await docs.getByText("time_to_submit_ms").first().waitFor();
      await docs.getByText("publishable key").first().waitFor();
      await docs.locator('.opblock-summary-path[data-path="/api/v1/screen"]').click();
      await docs.getByText("jane.doe@example.com").first().waitFor();
      await docs.close();
    },
  );
});
