/**
 * Settings → Account in real Chromium: an owner exports the configuration and gets a JSON file;
 * another merchant picks that file, sees what it would change in the console's words, imports
 * it and sees the new webhook endpoint's secret once; a file that requires two-factor sign-in
 * says, before anything is imported, that the importer will have to set it up at once; then
 * the merchant deletes their account (a wrong password is refused on its field) and lands on
 * the login page, signed out.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_DELETE_TEXT, type AccountConfig } from "../../shared/schemas/account-config.ts";
import { MUST_ENROL_WARNING } from "../../shared/schemas/import-preview.ts";
import { DEFAULT_RULES } from "../../shared/schemas/rules.ts";
import { screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("the account's own data in Chromium", () => {
  let t: TestApp;
  let owner: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let exported: { name: string; text: string };

  beforeAll(async () => {
    ({ t, merchant: owner, browser, page } = await openConsole("account-export@example.com"));
    for (const [path, input] of [
      ["rules.put", { ...DEFAULT_RULES, rule_ip: true, risk_level_threshold: 61 }],
      ["blocklist.put", { countries: ["KP"], email_providers: ["spam.example"] }],
      ["allowList.add", { kind: "user_id", value: "vip-42", note: "a regular" }],
      ["webhooks.createEndpoint", { url: "https://8.8.8.8/e2e-hook", events: ["label.created"] }],
    ] as const) {
      expect(await owner.browser.mutate(path, input), path).toMatchObject({ ok: true });
    }
  });
  afterAll(async () => {
    await closeConsole({ t, browser });
  });

  const section = () => page.getByRole("region", { name: "Account", exact: true });

  it("downloads the configuration as a JSON file", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await section().getByRole("heading", { name: "Export configuration" }).waitFor();
    const download = page.waitForEvent("download");
    await section().getByRole("button", { name: "Export configuration" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^warden-config-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await readFile((await file.path()) as string, "utf8");
    const doc = JSON.parse(text) as AccountConfig;
    expect(doc).toMatchObject({
      warden_config: 1,
      rules: { rule_ip: true, risk_level_threshold: 61 },
      blocklist: { countries: ["KP"], email_providers: ["spam.example"] },
      allow_list: [{ kind: "user_id", value: "vip-42", note: "a regular", expires_at: null }],
      webhook_endpoints: [{ url: "https://8.8.8.8/e2e-hook", events: ["label.created"] }],
    });
    expect(text).not.toContain("whsec_");
    exported = { name: file.suggestedFilename(), text };
  });

  it("imports that file into another account after showing what changes", async () => {
    const other = await signedInMerchant(t, "account-import@example.com");
    await signInAs(browser.context, t.baseUrl, other.token);
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await section().getByRole("heading", { name: "Import configuration" }).waitFor();
    const preview = section().getByRole("region", { name: "What the import changes" });

    // A file that requires two-factor sign-in says so, and what it means for the importer,
    // before anything is imported.
    const strict = {
      warden_config: 1,
      security: { require_two_factor: true, audit_retention_days: 90 },
    };
    await section()
      .getByLabel("Configuration file")
      .setInputFiles({
        name: "strict.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(strict)),
      });
    const warnings = preview.getByRole("note", { name: "Before you import" });
    await warnings.getByText(MUST_ENROL_WARNING).waitFor();
    await warnings.getByText("Audit log events older than 90 days will be deleted.").waitFor();
    await preview.getByText("Require two-factor sign-in: off → on").waitFor();
    await screenshot(page, "account-import-two-factor-warning");
    await preview.getByRole("button", { name: "Cancel" }).click();
    await preview.waitFor({ state: "detached" });
    expect(
      await t.prisma.account.findUniqueOrThrow({ where: { id: other.accountId } }),
    ).toMatchObject({ requireTwoFactor: false, auditRetentionDays: 365 });

    await section()
      .getByLabel("Configuration file")
      .setInputFiles({
        name: exported.name,
        mimeType: "application/json",
        buffer: Buffer.from(exported.text),
      });
    await preview.getByText("country added: KP").waitFor();
    // Rules by their names, as the Rules page shows them.
    await preview.getByText("Risk level threshold: 70 → 61").waitFor();
    await preview.getByText("One trial per device/IP/email: off → on").waitFor();
    await preview.getByText("added user_id:vip-42").waitFor();
    await preview.getByText("added https://8.8.8.8/e2e-hook (label.created)").waitFor();
    // Nothing is written before the confirmation.
    const blocklist = await t.prisma.blocklist.findUnique({
      where: { accountId: other.accountId },
    });
    expect(blocklist?.countries ?? []).toEqual([]);
    await screenshot(page, "account-import-preview");

    await preview.getByRole("button", { name: "Import these changes" }).click();
    await section().getByText("Configuration imported.").waitFor();
    expect(await section().locator(".account-secrets code").innerText()).toMatch(/^whsec_/);
    // The pages re-read once the secret shown once has been read.
    const endpoints = page.getByRole("list", { name: "Endpoints" });
    await section().getByRole("button", { name: "I have copied them" }).click();
    await endpoints.getByText("https://8.8.8.8/e2e-hook").waitFor();
    expect(await section().locator(".account-secrets code").count()).toBe(1);
    expect(
      await t.prisma.blocklist.findUniqueOrThrow({ where: { accountId: other.accountId } }),
    ).toMatchObject({ countries: ["KP"], emailProviders: ["spam.example"] });
    expect(await t.prisma.webhookEndpoint.count({ where: { accountId: other.accountId } })).toBe(1);
  });

  it("deletes the account with the password, and lands on the login page", async () => {
    const other = await t.prisma.user.findUniqueOrThrow({
      where: { email: "account-import@example.com" },
    });
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await section().getByRole("button", { name: "Delete this account…" }).click();
    const form = section().getByRole("form", { name: "Delete account" });
    await form.getByLabel('Type the account\'s name, or the word "delete"').fill("delete");
    await form.getByLabel("Your password").fill("not my password");
    await form.getByRole("button", { name: "Delete account permanently" }).click();
    await form.getByText("Your current password is not correct.").waitFor();
    expect(await t.prisma.account.count({ where: { id: other.accountId } })).toBe(1);

    await form.getByLabel("Your password").fill(owner.password);
    await form.getByRole("button", { name: "Delete account permanently" }).click();
    await page.waitForURL(/\/login\?notice=account-deleted$/);
    await page.getByRole("form", { name: "Log in" }).waitFor();
    await page.getByRole("status").getByText(ACCOUNT_DELETE_TEXT.deleted).waitFor();
    await screenshot(page, "account-deleted-login");
    expect(await t.prisma.account.count({ where: { id: other.accountId } })).toBe(0);
    expect(await t.prisma.user.count({ where: { id: other.id } })).toBe(0);
    // The first account is untouched.
    expect(await t.prisma.account.count({ where: { id: owner.accountId } })).toBe(1);
  });

  it("imports a file that requires two-factor sign-in, then sends the importer to set it up", async () => {
    const other = await signedInMerchant(t, "account-import-strict@example.com");
    await signInAs(browser.context, t.baseUrl, other.token);
    await page.goto(`${t.baseUrl}/homepage/settings#account`);
    await section().getByRole("heading", { name: "Import configuration" }).waitFor();
    const strict = {
      warden_config: 1,
      security: { require_two_factor: true, audit_retention_days: 365 },
    };
    await section()
      .getByLabel("Configuration file")
      .setInputFiles({
        name: "strict.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(strict)),
      });
    const preview = section().getByRole("region", { name: "What the import changes" });
    await preview
      .getByRole("note", { name: "Before you import" })
      .getByText(MUST_ENROL_WARNING)
      .waitFor();
    await preview.getByRole("button", { name: "Import these changes" }).click();
    // What was imported stays on screen until the person goes on to set it up.
    await section().getByText("Configuration imported.").waitFor();
    expect(
      await t.prisma.account.findUniqueOrThrow({ where: { id: other.accountId } }),
    ).toMatchObject({ requireTwoFactor: true });
    await section().getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await page.waitForURL(`${t.baseUrl}/login?step=enrol`);
    await page.getByRole("heading", { name: "Set up two-factor sign-in" }).waitFor();
  });
});
