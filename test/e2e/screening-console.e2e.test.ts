import { describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { CONSOLE_PAGES, useConsole } from "../helpers/console-browser.ts";
import { TestClient } from "../helpers/http-client.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";

const PAGES = CONSOLE_PAGES;

describe("screening console in Chromium", () => {
  const c = useConsole("screening-console@example.com");

  const open = async (path: string, heading: string) => {
    await c.page.goto(`${c.t.baseUrl}/homepage/${path}`);
    await c.page.getByRole("heading", { name: heading, exact: true }).first().waitFor();
  };
  const response = (procedure: string) =>
    c.page.waitForResponse((r) => r.url().includes(`/trpc/${procedure}`));
  const screenWith = (key: string) =>
    new TestClient(c.t.baseUrl, { authorization: `Bearer ${key}` }).json("/api/v1/screen", {
      body: { type: "signup", email: "someone@example.com" },
    });

  it("saves a rule's action, mode and parameter, keeps them after a reload, and shows a 400", async () => {
    await open("rules", "Advanced Detection Rules");
    expect(await c.page.getByText("Under development").count()).toBe(0);
    const advanced = c.page.getByRole("list", { name: "Advanced Detection Rules" });
    expect(await advanced.getByRole("switch").count()).toBe(11);

    await c.page.getByRole("button", { name: "Settings for Signup velocity" }).click();
    const form = c.page.getByRole("form", { name: "Signup velocity settings" });
    await form.getByLabel("Action").selectOption("review");
    await form.getByLabel("Mode").selectOption("monitor");
    await form.getByLabel("Signups per IP per hour").fill("3");
    const saved = response("ruleSettings.put");
    await form.getByRole("button", { name: "Save" }).click();
    expect((await saved).status()).toBe(200);
    await form.getByText("Saved.").waitFor();

    await c.page.reload();
    await c.page.getByRole("button", { name: "Settings for Signup velocity" }).click();
    expect(await form.getByLabel("Action").inputValue()).toBe("review");
    expect(await form.getByLabel("Mode").inputValue()).toBe("monitor");
    expect(await form.getByLabel("Signups per IP per hour").inputValue()).toBe("3");
    const stored = await c.merchant.api.json<Record<string, unknown>>("/api/rule-settings");
    expect(stored.body.rule_signup_velocity).toEqual({
      action: "review",
      mode: "monitor",
      per_ip_per_hour: 3,
      per_subnet_per_hour: 20,
      per_network_per_hour: 5,
    });

    await form.getByLabel("Signups per IP per hour").fill("0");
    const rejected = response("ruleSettings.put");
    await form.getByRole("button", { name: "Save" }).click();
    expect((await rejected).status()).toBe(400);
    await form.getByText("must be at least 1").waitFor();

    await screenshot(c.page, "screening-rule-settings");
    const after =
      await c.merchant.api.json<Record<string, Record<string, unknown>>>("/api/rule-settings");
    expect(after.body.rule_signup_velocity?.per_ip_per_hour).toBe(3);
  });

  it("offers One trial per device's choice for a second account's trial on a device, saves it and shows a 400 under it", async () => {
    await open("rules", "Advanced Detection Rules");
    await c.page
      .getByRole("button", { name: "Settings for One trial per device/IP/email" })
      .click();
    const form = c.page.getByRole("form", { name: "One trial per device/IP/email settings" });
    const choice = form.getByLabel("Second account's trial on a device");
    expect(await choice.inputValue()).toBe("review");
    expect(await choice.locator("option").allInnerTexts()).toEqual(["Review", "Block"]);
    await choice.selectOption("block");
    const saved = response("ruleSettings.put");
    await form.getByRole("button", { name: "Save" }).click();
    expect((await saved).status()).toBe(200);
    await form.getByText("Saved.").waitFor();

    await c.page.reload();
    await c.page
      .getByRole("button", { name: "Settings for One trial per device/IP/email" })
      .click();
    expect(await choice.inputValue()).toBe("block");
    const stored = await c.merchant.api.json<Record<string, unknown>>("/api/rule-settings");
    expect(stored.body.rule_ip).toEqual({
      action: "block",
      mode: "live",
      window_days: 365,
      second_trial_on_device: "block",
    });

    // A select offers no wrong value: should the server still refuse one (the request is
    // altered on its way), its 400 is shown under the choice.
    await c.page.route("**/trpc/ruleSettings.put**", (route) =>
      route.continue({
        postData: (route.request().postData() ?? "").replace('"review"', '"deny"'),
      }),
    );
    await choice.selectOption("review");
    const rejected = response("ruleSettings.put");
    await form.getByRole("button", { name: "Save" }).click();
    expect((await rejected).status()).toBe(400);
    const error = form.getByText("must be review or block");
    await error.waitFor();
    expect(await choice.getAttribute("aria-describedby")).toBe(await error.getAttribute("id"));
    await form.getByText("Not saved: check the fields marked above.").waitFor();
    await screenshot(c.page, "screening-second-trial-choice");
    await c.page.unroute("**/trpc/ruleSettings.put**");
    const after =
      await c.merchant.api.json<Record<string, Record<string, unknown>>>("/api/rule-settings");
    expect(after.body.rule_ip?.second_trial_on_device).toBe("block");
  });

  it("shows what One Human One Trial turns on, and the Rules page names it on the rule", async () => {
    await open("templates", "Templates");
    expect(await c.page.getByText("Under development").count()).toBe(0);
    const rules = c.page.getByRole("list", { name: "Rules One Human One Trial turns on" });
    expect(await rules.getByRole("listitem").allInnerTexts()).toEqual([
      "One trial per device/IP/email with its default values",
      "Device fingerprint reuse with its default values",
      "Block disposable or low-reputation emails — Judge only at: trial_start",
      "Account farming and refund flagging — Block a device or card behind too many accounts: yes; Review checkouts after refunds or disputes: no",
      "Timezone mismatch — Judge only at: trial_start",
    ]);
    const saved = response("templates.put");
    await c.page.getByText("One Human One Trial", { exact: true }).click();
    expect((await saved).status()).toBe(200);
    expect(await c.page.getByRole("switch", { name: "One Human One Trial" }).isChecked()).toBe(
      true,
    );
    await screenshot(c.page, "screening-templates");

    await c.page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Rules" })
      .click();
    const driven = c.page.locator('[data-driven-by="rule_ip"]');
    await driven.waitFor();
    expect(await driven.innerText()).toBe("On through One Human One Trial");
    expect(await c.page.locator('[data-driven-by="rule_scraping"]').count()).toBe(0);
    // The switch says the rule runs, through the template (its own flag stays off).
    expect(
      await c.page.getByRole("switch", { name: "One trial per device/IP/email" }).isChecked(),
    ).toBe(true);
  });

  it("shows counts, filters, search, reasons and monitored rules on the Screenings page", async () => {
    await open("screenings", "Screenings");
    await c.page.getByText("No screenings yet.").waitFor();

    await turnOn(c.merchant, "rule_signup_velocity");
    const backend = await backendOf(c.t, c.merchant);
    for (const n of [1, 2, 3, 4]) {
      await backend.decide({ type: "signup", email: `signup${n}@example.com`, ip: "203.0.113.7" });
    }
    await backend.decide({ type: "trial_start", email: "trial@example.com", ip: "198.51.100.1" });
    const second = await backend.decide({
      type: "trial_start",
      email: "trial@example.com",
      ip: "198.51.100.2",
    });
    expect(second.decision).toBe("block");

    await c.page.reload();
    const count = (decision: string) => c.page.locator(`[data-count="${decision}"]`).innerText();
    await expect.poll(() => count("allow")).toBe("5");
    expect(await count("review")).toBe("0");
    expect(await count("block")).toBe("1");
    const rows = c.page.locator("tbody tr[data-screening]");
    await expect.poll(() => rows.count()).toBe(6);
    await screenshot(c.page, "screening-page");

    const filters = c.page.getByRole("form", { name: "Filter screenings" });
    await filters.getByLabel("Decision").selectOption("block");
    await expect.poll(() => rows.count()).toBe(1);
    const blocked = rows.first();
    expect(await blocked.innerText()).toContain("trial@example.com");
    await blocked.getByRole("button").click();
    const reasons = c.page.getByRole("list", { name: "Reasons" });
    const reason = reasons.locator('[data-rule="rule_ip"]');
    expect(await reason.innerText()).toContain(
      "a trial was already started with this email (trial@example.com) in 365 days",
    );
    expect(await reason.locator("[data-observed]").innerText()).toBe("2");
    expect(await reason.locator("[data-limit]").innerText()).toBe("1");

    await filters.getByLabel("Decision").selectOption("");
    await filters.getByLabel("Search").fill("signup4@example.com");
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole("button").click();
    const monitored = c.page.getByRole("list", { name: "Monitored rules" });
    expect(await monitored.innerText()).toContain("would have reviewed");
    expect(await monitored.innerText()).toContain("4th signup from 203.0.113.7 in 1 h (limit 3)");
    expect(await rows.first().innerText()).toContain("Allowed");
    await screenshot(c.page, "screening-row-open");

    await filters.getByLabel("Search").fill("nobody@example.com");
    await c.page.getByText("No screenings match these filters.").waitFor();
  });

  it("creates an API key shown once, lists it by its start, and revoking it gets a 401", async () => {
    await open("settings", "API keys");
    const section = c.page.getByRole("region", { name: "API keys" });
    await section.getByRole("button", { name: "Create key" }).click();
    await section.getByText("Name must not be empty").waitFor();

    const created = response("apiKeys.create");
    await section.getByLabel("Key name").fill("Browser backend");
    await section.getByRole("button", { name: "Create key" }).click();
    expect((await created).status()).toBe(200);
    await section.getByText("Copy it now, it will not be shown again.").waitFor();
    const key = await section.getByLabel("Your new API key").inputValue();
    expect(key).toMatch(/^wdn_sk_/);
    expect((await screenWith(key)).status).toBe(200);

    const keys = section.getByRole("list", { name: "API keys" });
    const item = keys.getByRole("listitem").filter({ hasText: "Browser backend" });
    await item.waitFor();
    const start = (await item.locator("code").innerText()).replace("…", "");
    expect(start.length).toBeGreaterThan(7);
    expect(key.startsWith(start)).toBe(true);
    expect(start.length).toBeLessThan(key.length);
    await screenshot(c.page, "screening-api-key-created");

    await c.page.reload();
    await item.waitFor();
    expect(await item.innerText()).not.toContain("Last used Never");
    expect(await c.page.content()).not.toContain(key);
    expect(await section.getByText("Copy it now").count()).toBe(0);

    await item.getByRole("button", { name: "Revoke Browser backend" }).click();
    const revoked = response("apiKeys.revoke");
    await item.getByRole("button", { name: "Yes, revoke" }).click();
    expect((await revoked).status()).toBe(200);
    await keys.or(section.getByText("No API keys yet.")).first().waitFor();
    await expect.poll(() => section.getByText("Browser backend").count()).toBe(0);
    expect((await screenWith(key)).status).toBe(401);
  });

  it("loads the next page of screenings with the cursor", async () => {
    const backend = await backendOf(c.t, c.merchant, "bulk");
    for (let n = 0; n < 50; n++) {
      await backend.decide({ type: "login", user_id: `user-${n}` });
    }
    await open("screenings", "Screenings");
    await c.page.getByText("50 screenings shown").waitFor();
    await c.page.getByRole("button", { name: "Load more" }).click();
    await c.page.getByText("57 screenings shown").waitFor();
    expect(await c.page.getByRole("button", { name: "Load more" }).count()).toBe(0);
  });

  it("fits every console page in 375 px without sideways scrolling, with thumb-sized links", async () => {
    await c.page.setViewportSize({ width: 375, height: 812 });
    for (const path of PAGES) {
      await c.page.goto(`${c.t.baseUrl}/homepage/${path}`);
      await c.page.locator("main h1").first().waitFor();
      await c.page.waitForLoadState("networkidle");
      if (path === "dashboard") {
        await c.page.getByRole("button", { name: "Load demo data…" }).click();
        await c.page.getByRole("button", { name: "Load demo data", exact: true }).click();
        await c.page.locator("tbody tr[data-charge]").first().waitFor({ timeout: 20_000 });
      }
      if (path === "rules") {
        await c.page
          .getByRole("button", { name: "Settings for Farming" })
          .or(
            c.page.getByRole("button", {
              name: "Settings for Account farming and refund flagging",
            }),
          )
          .first()
          .click();
      }
      if (path === "screenings")
        await c.page.locator("tbody tr[data-screening] button").first().click();
      const width = await c.page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} scroll width`).toBeLessThanOrEqual(375);
      const nav = c.page.getByRole("navigation", { name: "Console" });
      const boxes = await nav.getByRole("link").evaluateAll((links) =>
        links.map((link) => {
          const box = link.getBoundingClientRect();
          return { height: box.height, width: box.width, right: box.right };
        }),
      );
      // Four tabs; Templates and Block lists sit under "More" (narrow-screens.e2e.test.ts).
      expect(boxes).toHaveLength(4);
      for (const box of boxes) {
        expect(box.height, `${path} nav link height`).toBeGreaterThanOrEqual(44);
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.right).toBeLessThanOrEqual(375);
      }
      await screenshot(c.page, `screening-375-${path}`);
    }
  });
});
