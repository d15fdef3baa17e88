import { describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { allowOrigins, publishableKeyOf, tokenFor } from "../helpers/collector.ts";
import { useConsole } from "../helpers/console-browser.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";

describe("collector and monitor mode in the console", () => {
  const c = useConsole("collector-console@example.com");

  it("shows the collect IP beside the backend's, and a monitored block as 'would have blocked'", async () => {
    await turnOn(c.merchant, "rule_signup_velocity");
    const put = await c.merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_signup_velocity: { action: "block", mode: "monitor", per_ip_per_hour: 1 } },
    });
    expect(put.status).toBe(200);
    await allowOrigins(c.merchant, ["https://shop.example.com"]);
    const backend = await backendOf(c.t, c.merchant);
    const pk = (await publishableKeyOf(c.merchant)).key;
    await backend.decide({ type: "signup", email: "first@example.com", ip: "203.0.113.50" });
    const second = await backend.decide({
      type: "signup",
      email: "second@example.com",
      ip: "203.0.113.50",
      signals: await tokenFor(c.t, pk),
    });
    expect(second).toMatchObject({ decision: "allow", signals: "accepted" });
    expect(second.monitored).toEqual([
      expect.objectContaining({ rule: "rule_signup_velocity", action: "block" }),
    ]);

    await c.page.goto(`${c.t.baseUrl}/homepage/screenings`);
    const rows = c.page.locator("tbody tr[data-screening]");
    await expect.poll(() => rows.count()).toBe(2);
    const row = rows.filter({ hasText: "second@example.com" });
    await row.getByRole("button").click();
    const monitored = c.page.getByRole("list", { name: "Monitored rules" });
    expect(await monitored.innerText()).toContain("would have blocked");
    expect(await row.innerText()).toContain("Allowed");
    const collectIp = c.page.locator("[data-collect-ip]");
    expect(await collectIp.innerText()).toMatch(/127\.0\.0\.1/);
    expect(await c.page.locator(".sc-collect").innerText()).toContain(
      "your backend sent 203.0.113.50",
    );
    await screenshot(c.page, "collector-screening-row");
  });

  it.each(["/api/docs", "/api/docs/"])(
    "lists the screening and collect operations at %s",
    async (path) => {
      const docs = await c.browser.newPage();
      await docs.goto(`${c.t.baseUrl}${path}`);
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
