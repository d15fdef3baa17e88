/**
 * A page on an origin not yet allowed, in Chromium: warden.js logs why its collect was refused
 * (one console line naming the origin and where to allow it), the backend's screening answers
 * `signals: "refused"` with the reason, Settings → API keys suggests that origin, one click
 * allows it, and the next collect from the page is accepted.
 */
import type { ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { publishableKeyOf } from "../helpers/collector.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { startMerchantSite } from "../helpers/merchant-site.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

type Answer = { decision: string; signals?: string; signals_reason?: string };

describe("an origin not yet allowed", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let site: Awaited<ReturnType<typeof startMerchantSite>>;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("collector-origins@example.com"));
    const backend = await backendOf(t, merchant);
    site = await startMerchantSite({
      wardenUrl: t.baseUrl,
      publishableKey: (await publishableKeyOf(merchant)).key,
      secretKey: backend.key,
    });
  });
  afterAll(async () => {
    await site?.close();
    await closeConsole({ t, browser });
  });

  async function signUp(shop: Page): Promise<Answer> {
    await shop.goto(`${site.origin}/signup`);
    await shop.getByLabel("Email").fill("newcomer@example.com");
    await shop.getByRole("button", { name: "Sign up" }).click();
    await shop.locator('#result[data-done="true"]').waitFor();
    expect(await shop.locator("#result").getAttribute("data-error")).toBeNull();
    return JSON.parse(await shop.locator("#result").innerText()) as Answer;
  }

  it("logs the refusal, suggests the origin, and one click makes the next collect work", async () => {
    const shop = await browser.newPage();
    const warnings: string[] = [];
    shop.on("console", (message: ConsoleMessage) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    const reason =
      `Origin ${site.origin} is not one of this account's allowed origins: ` +
      "allow it in Settings → API keys → Allowed origins.";

    const refused = await signUp(shop);
    expect(refused).toMatchObject({ signals: "refused", signals_reason: reason });
    expect(warnings).toEqual([`Warden: collect refused: ${reason}`]);

    await page.goto(`${t.baseUrl}/homepage/settings`);
    const suggestion = page.locator(`.origin-suggestion[data-origin="${site.origin}"]`);
    await suggestion.waitFor();
    expect(await suggestion.innerText()).toContain(`Allow ${site.origin}?`);
    await screenshot(page, "allowed-origins-suggestion");
    await suggestion.getByRole("button", { name: `Allow ${site.origin}` }).click();
    const list = page.getByRole("list", { name: "Allowed origins" });
    await list.getByText(site.origin).waitFor();
    await suggestion.waitFor({ state: "detached" });

    const accepted = await signUp(shop);
    expect(accepted.signals).toBe("accepted");
    expect(accepted.signals_reason).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it("points the referrer rule's settings to where the allowed origins now live", async () => {
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByRole("button", { name: "Settings for Referrer and origin mismatch" }).click();
    const hint = page.locator("[data-origins-hint]");
    await hint.getByRole("link", { name: "Settings → API keys" }).click();
    await page.getByRole("list", { name: "Allowed origins" }).getByText(site.origin).waitFor();
    expect(new URL(page.url()).pathname).toBe("/homepage/settings");
  });
});
