/** Rules, block lists and settings as a merchant uses them, in real Chromium. */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";

const SECRET = "sk_test_51BrowserSecretKey4242";

describe("console configuration in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("console@example.com"));
  });
  afterAll(() => closeConsole({ t, browser }));

  /** Waits for the next successful save of `entity` while `act` runs. */
  async function saved(entity: string, act: () => Promise<unknown>) {
    const response = page.waitForResponse(
      (r) => r.url().includes(`/trpc/${entity}.put`) && r.request().method() === "POST",
    );
    await act();
    expect((await response).status()).toBe(200);
  }

  const storedRules = async () =>
    (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;

  it("turns a rule on, and it is still on after a reload", async () => {
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByRole("heading", { name: "Detection Rules (Standard + Advanced)" }).waitFor();
    await page.getByRole("heading", { name: "Standard Detection Rule" }).waitFor();
    const efw = page.getByRole("switch", { name: "Early Fraud Warning Detection" });
    expect(await efw.isChecked()).toBe(false);
    const advanced = page.getByRole("list", { name: "Advanced Detection Rules" });
    expect(await advanced.getByRole("switch").count()).toBe(11);
    // All fifteen rules work: no "Under development" badge is left.
    expect(await page.getByText("Under development").count()).toBe(0);

    await saved("rules", () => page.getByText("Early Fraud Warning Detection").click());
    expect(await efw.isChecked()).toBe(true);
    await page.reload();
    await efw.waitFor();
    expect(await efw.isChecked()).toBe(true);
    expect(await storedRules()).toMatchObject({ rule_efw: true });
    await screenshot(page, "console-rules");
  });

  it("clamps the threshold while typing: 150 shows 100, -5 shows 0, and saves it", async () => {
    const threshold = page.getByRole("spinbutton", { name: /Threshold/ });
    expect(await threshold.inputValue()).toBe("70");
    await saved("rules", () => threshold.fill("150"));
    expect(await threshold.inputValue()).toBe("100");
    await saved("rules", () => threshold.fill("-5"));
    expect(await threshold.inputValue()).toBe("0");
    await expect.poll(async () => (await storedRules()).risk_level_threshold).toBe(0);
    await page.reload();
    expect(await page.getByRole("spinbutton", { name: /Threshold/ }).inputValue()).toBe("0");
  });

  it("keeps every one of several rapid toggles", async () => {
    for (const label of [
      "Country blocked",
      "Signup velocity",
      "Timezone mismatch",
      "Signup velocity",
    ]) {
      await page.getByText(label, { exact: true }).click();
    }
    await expect.poll(storedRules, { timeout: 10_000 }).toMatchObject({
      rule_country_blocked: true,
      rule_signup_velocity: false,
      rule_timezone_mismatch: true,
    });
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saving" }).count()).toBe(0);
    expect(await page.getByRole("switch", { name: "Timezone mismatch" }).isChecked()).toBe(true);
    expect(await page.getByRole("switch", { name: "Signup velocity" }).isChecked()).toBe(false);
  });

  it("puts a toggle back and says so when the save fails", async () => {
    await page.route("**/trpc/rules.put**", (route) => route.abort());
    const email = page.getByRole("switch", { name: "Block disposable or low-reputation emails" });
    await page.getByText("Block disposable or low-reputation emails").click();
    await page.getByRole("alert").filter({ hasText: "Your change was not saved" }).waitFor();
    expect(await email.isChecked()).toBe(false);
    await page.unroute("**/trpc/rules.put**");
    expect(await storedRules()).toMatchObject({ rule_email: false });
  });

  it("adds a custom provider trimmed and lowercased, once", async () => {
    await page.goto(`${t.baseUrl}/homepage/block-lists`);
    await page.getByRole("heading", { name: "Block lists" }).waitFor();
    await page.getByText(MESSAGES.blocklistNote).waitFor();
    const input = page.getByLabel("Custom domain");
    const add = page.getByRole("button", { name: "Add", exact: true });
    expect(await add.isDisabled()).toBe(true);

    await input.fill(" Example.COM ");
    expect(await add.isDisabled()).toBe(false);
    await saved("blocklist", () => add.click());
    const blocked = page.getByRole("list", { name: "Blocked providers" });
    await blocked.getByText("example.com", { exact: true }).waitFor();
    await input.fill(" Example.COM ");
    await add.click();
    expect(await input.inputValue()).toBe("");
    expect(await blocked.getByRole("listitem").allTextContents()).toEqual(["example.com×"]);

    await saved("blocklist", () => page.getByLabel("gmail.com").check());
    expect(await blocked.getByRole("listitem").count()).toBe(2);
    const stored = await merchant.api.json("/api/blocklist");
    expect(stored.body).toEqual({ countries: [], email_providers: ["example.com", "gmail.com"] });
  });

  it("ticks a country, and it is still ticked after a reload", async () => {
    const countries = page.getByRole("list", { name: "Countries" });
    expect(await countries.getByRole("checkbox").count()).toBeGreaterThan(240);
    const box = await countries.evaluate((el) => el.getBoundingClientRect().height);
    expect(box).toBeLessThanOrEqual(800 * 0.4 + 1);

    await page.getByLabel("Filter countries").fill("france");
    const france = countries.getByRole("checkbox", { name: "France FR" });
    await saved("blocklist", () => france.check());
    await page.reload();
    await page.getByRole("heading", { name: "Country block list" }).waitFor();
    expect(await page.getByRole("checkbox", { name: "France FR" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Germany DE" }).isChecked()).toBe(false);
    expect((await merchant.api.json("/api/blocklist")).body).toMatchObject({ countries: ["FR"] });
    await screenshot(page, "console-block-lists");
  });

  it("saves settings, then shows the secret key only as a masked hint", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await page.getByRole("heading", { name: "Settings" }).first().waitFor();
    await page.getByLabel("App Name").fill("Acme");
    await page.getByLabel("Contact Email").fill("ops@acme.test");
    const secret = page.locator('input[name="stripe_secret"]');
    await secret.fill(SECRET);
    expect(await secret.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Show" }).click();
    expect(await secret.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide" }).click();
    expect(await secret.getAttribute("type")).toBe("password");
    await page.getByLabel("Stripe Publishable Key").fill("pk_test_51BrowserPublishable01");
    await page.locator('input[name="stripe_webhook_secret"]').fill("whsec_BrowserSigning5555");
    // The server supplies this account's webhook URL: shown, read-only.
    const webhookUrl = page.locator('input[name="stripe_webhook_url"]');
    expect(await webhookUrl.inputValue()).toBe(
      `${t.config.publicUrl}/webhooks/stripe/${(await t.prisma.account.findUniqueOrThrow({ where: { id: merchant.accountId } })).webhookEndpointId}`,
    );
    expect(await webhookUrl.getAttribute("readonly")).not.toBeNull();

    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText(MESSAGES.settingsSaved).waitFor();

    await page.reload();
    await page.getByText("Saved key: sk_test_…4242").waitFor();
    await page.getByText("Saved secret: whsec_…5555").waitFor();
    expect(await page.locator('input[name="stripe_secret"]').inputValue()).toBe("");
    expect(await page.locator('input[name="stripe_secret"]').getAttribute("type")).toBe("password");
    expect(await page.getByLabel("App Name").inputValue()).toBe("Acme");
    expect(await page.content()).not.toContain(SECRET);
    await page.getByRole("heading", { name: "Change Password" }).waitFor();
    await screenshot(page, "console-settings");
  });

  it("names the field when a setting is invalid", async () => {
    await page.locator('input[name="stripe_secret"]').fill("pk_test_wrongKindOfKey");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText(/must be a Stripe secret key starting with sk_test_/).waitFor();
    expect(await page.getByText(MESSAGES.settingsSaved).count()).toBe(0);
  });
});
