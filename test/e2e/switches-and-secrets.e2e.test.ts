/**
 * Issue 36, points 2 and 3 in real Chromium: a rule a template turns on shows its switch on, and
 * turning it off says what it takes (and the server does just that); a new API key or signing
 * secret stays on screen until acknowledged, copies to the clipboard, and a second waits.
 */
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_CATALOG } from "../../shared/catalog/rules.ts";
import { DEFAULT_TEMPLATES } from "../../shared/schemas/templates.ts";
import { launchBrowser, screenshot, signInAs } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe("switches that tell the truth, secrets you cannot lose", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    // Private addresses allowed, so a webhook endpoint can be added without a public host.
    t = await startTestApp("embedded", { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
    merchant = await signedInMerchant(t, "truth@example.com");
    browser = await launchBrowser();
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: t.baseUrl,
    });
    await signInAs(browser.context, t.baseUrl, merchant.token);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const sw = (label: string) => page.getByRole("switch", { name: label, exact: true });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  /** Each rule's switch on the page, against what the server runs for the account. */
  async function switchesAgainstServer() {
    const policy = await t.app.services.policy.load(merchant.accountId);
    const shown: Record<string, boolean> = {};
    const runs: Record<string, boolean> = {};
    for (const rule of RULE_CATALOG) {
      shown[rule.key] = await sw(rule.label).isChecked();
      runs[rule.key] = policy.enabled[rule.key];
    }
    return { shown, runs };
  }

  it("shows a rule on through a template as on, saying where it comes from", async () => {
    const put = await merchant.api.json("/api/templates", {
      method: "PUT",
      body: { ...DEFAULT_TEMPLATES, template_one_human_one_trial: true },
    });
    expect(put.status).toBe(200);
    // Its own switch on too: a rule on by itself stays on when the template goes off.
    await turnOn(merchant, "rule_email");

    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.locator('[data-driven-by="rule_ip"]').waitFor();
    expect(await sw("One trial per device/IP/email").isChecked()).toBe(true);
    expect(await sw("Device fingerprint reuse").isChecked()).toBe(true);
    expect(await page.locator('[data-driven-by="rule_ip"]').innerText()).toBe(
      "On through One Human One Trial",
    );
    expect(await page.locator('[data-driven-by="rule_email"]').innerText()).toBe(
      "On through One Human One Trial and its own switch",
    );
    expect(await sw("Scraping and throttling").isChecked()).toBe(false);
    const { shown, runs } = await switchesAgainstServer();
    expect(shown).toEqual(runs);
    await screenshot(page, "rules-on-through-template");
  });

  it("turning it off says what that does to the template, and the server does just that", async () => {
    const puts: string[] = [];
    const onRequest = (request: Request) => {
      if (/\/trpc\/(rules|templates)\.put/.test(request.url())) puts.push(request.url());
    };
    page.on("request", onRequest);
    await page.getByText("One trial per device/IP/email", { exact: true }).click();
    const note = page.getByRole("region", { name: "Turn off One trial per device/IP/email" });
    await note.waitFor();
    expect(await note.innerText()).toContain(
      "One trial per device/IP/email runs as part of One Human One Trial: its switch cannot stop it while that template is on.",
    );
    // Block disposable emails is on by its own switch too, so only the template's other rules
    // stop with it.
    expect(await note.innerText()).toContain(
      "Turning off One Human One Trial also stops Account farming and refund flagging, Timezone mismatch and Device fingerprint reuse.",
    );
    expect(await sw("One trial per device/IP/email").isChecked()).toBe(true);
    await screenshot(page, "rules-turn-off-note");
    // On a phone the note and its buttons fit the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const part of [note, note.getByRole("button", { name: "Turn off One Human One Trial" })]) {
      const box = await part.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, JSON.stringify(box)).toBe(true);
    }
    await screenshot(page, "rules-turn-off-note-375");
    await page.setViewportSize({ width: 1280, height: 800 });

    await note.getByRole("button", { name: "Keep it on" }).click();
    await note.waitFor({ state: "detached" });
    expect(await sw("One trial per device/IP/email").isChecked()).toBe(true);
    expect(puts).toEqual([]);

    await page.getByText("One trial per device/IP/email", { exact: true }).click();
    const saved = page.waitForResponse((r) => r.url().includes("/trpc/templates.put"));
    await note.getByRole("button", { name: "Turn off One Human One Trial" }).click();
    expect((await saved).status()).toBe(200);
    page.off("request", onRequest);
    await note.waitFor({ state: "detached" });

    expect(await sw("One trial per device/IP/email").isChecked()).toBe(false);
    expect(await sw("Device fingerprint reuse").isChecked()).toBe(false);
    expect(await sw("Account farming and refund flagging").isChecked()).toBe(false);
    expect(await sw("Timezone mismatch").isChecked()).toBe(false);
    expect(await sw("Block disposable or low-reputation emails").isChecked()).toBe(true);
    expect(await page.locator("[data-driven-by]").count()).toBe(0);
    const templates = await merchant.api.json<Record<string, boolean>>("/api/templates");
    expect(templates.body.template_one_human_one_trial).toBe(false);
    const { shown, runs } = await switchesAgainstServer();
    expect(shown).toEqual(runs);
    expect(runs).toMatchObject({
      rule_ip: false,
      rule_device_fingerprint_reuse: false,
      rule_farming: false,
      rule_timezone_mismatch: false,
      rule_email: true,
    });
  });

  it("keeps a new API key on screen until acknowledged, copies it, and a second key waits", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const section = page.getByRole("region", { name: "API keys" });
    const form = section.getByRole("form", { name: "Create an API key" });
    const create = form.getByRole("button", { name: "Create key" });
    await form.getByLabel("Key name").fill("First backend");
    await create.click();
    const box = section.getByRole("region", { name: "New API key" });
    const key = await box.getByLabel("Your new API key").inputValue();
    expect(key).toMatch(/^wdn_sk_/);

    await box.getByRole("button", { name: "Copy" }).click();
    await box.getByRole("status").filter({ hasText: "Copied." }).waitFor();
    expect(await clipboard()).toBe(key);

    expect(await create.isDisabled()).toBe(true);
    const reason = section.getByText(
      "Copy the new key below and press “I have copied it” before creating another.",
    );
    expect(await reason.isVisible()).toBe(true);
    expect(await create.getAttribute("aria-describedby")).toBe("api-key-wait");
    await screenshot(page, "settings-new-key-waiting");

    // Enter in the name field does not slip past the disabled button either.
    const requests: string[] = [];
    const onRequest = (request: Request) => {
      if (request.url().includes("/trpc/apiKeys.create")) requests.push(request.url());
    };
    page.on("request", onRequest);
    await form.getByLabel("Key name").fill("Second backend");
    await form.getByLabel("Key name").press("Enter");
    await page.waitForTimeout(300);
    page.off("request", onRequest);
    expect(requests).toEqual([]);
    expect(await box.getByLabel("Your new API key").inputValue()).toBe(key);

    await box.getByRole("button", { name: "I have copied it" }).click();
    await box.waitFor({ state: "detached" });
    expect(await reason.count()).toBe(0);
    await create.click();
    const second = await box.getByLabel("Your new API key").inputValue();
    expect(second).not.toBe(key);
    await box.getByRole("button", { name: "I have copied it" }).click();
    const keys = section.getByRole("list", { name: "API keys" });
    await expect.poll(() => keys.getByRole("listitem").count()).toBe(2);
  });

  it("asks before leaving the page while a key is on screen", async () => {
    const section = page.getByRole("region", { name: "API keys" });
    await section.getByLabel("Key name").fill("Third backend");
    await section.getByRole("button", { name: "Create key" }).click();
    const box = section.getByRole("region", { name: "New API key" });
    const key = await box.getByLabel("Your new API key").inputValue();

    await page.getByRole("link", { name: "Rules" }).first().click();
    await box.getByRole("alert").filter({ hasText: "Leave without it?" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/homepage/settings");
    await box.getByRole("button", { name: "Stay" }).click();
    expect(await box.getByLabel("Your new API key").inputValue()).toBe(key);

    await page.getByRole("link", { name: "Rules" }).first().click();
    await box.getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(/\/homepage\/rules$/);
  });

  it("selects the key for Ctrl+C where the page has no clipboard API", async () => {
    const bare = await browser.newPage();
    // As on plain http from another host, where browsers give pages no navigator.clipboard.
    await bare.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
    });
    await bare.goto(`${t.baseUrl}/homepage/settings`);
    const section = bare.getByRole("region", { name: "API keys" });
    await section.getByLabel("Key name").fill("No clipboard");
    await section.getByRole("button", { name: "Create key" }).click();
    const box = section.getByRole("region", { name: "New API key" });
    const key = await box.getByLabel("Your new API key").inputValue();
    await box.getByRole("button", { name: "Copy" }).click();
    const status = box.getByRole("status");
    await expect.poll(() => status.innerText()).not.toBe("");
    const selected = await bare.evaluate(() => {
      const field = document.activeElement as HTMLInputElement;
      return field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0);
    });
    expect(selected).toBe(key);
    // Chromium still runs the old copy command on a click; the key is then on the clipboard.
    if ((await status.innerText()) === "Copied.") expect(await clipboard()).toBe(key);
    else expect(await status.innerText()).toBe("Selected: press Ctrl+C (⌘C on a Mac) to copy it.");
    await box.getByRole("button", { name: "I have copied it" }).click();
    await bare.close();
  });

  it("keeps a webhook signing secret on screen until acknowledged, copies it, and a second waits", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    const add = form.getByRole("button", { name: "Add endpoint" });
    await form.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/first");
    await add.click();
    const box = page.getByRole("region", { name: "New signing secret" });
    const secret = await box.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await box.innerText()).toContain("http://127.0.0.1:9/first");

    await box.getByRole("button", { name: "Copy" }).click();
    await box.getByRole("status").filter({ hasText: "Copied." }).waitFor();
    expect(await clipboard()).toBe(secret);

    await form.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/second");
    expect(await add.isDisabled()).toBe(true);
    expect(
      await form
        .getByText(
          "Copy the signing secret below and press “I have copied it” before adding another.",
        )
        .isVisible(),
    ).toBe(true);
    await screenshot(page, "settings-signing-secret-waiting");

    await box.getByRole("button", { name: "I have copied it" }).click();
    await box.waitFor({ state: "detached" });
    await add.click();
    const second = await box.getByLabel("Signing secret").inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(secret);
    await box.getByRole("button", { name: "I have copied it" }).click();
    const endpoints = page.getByRole("list", { name: "Endpoints" });
    await expect.poll(() => endpoints.getByRole("listitem").count()).toBe(2);
  });
});
