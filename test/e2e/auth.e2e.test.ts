import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { linkIn } from "../helpers/smtp.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const EMAIL = "journey@example.com";
const PASSWORD = "first password 1";
const NEW_PASSWORD = "second password 2";

describe("account journey in Chromium", () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp("embedded");
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function logIn(password: string) {
    await page.goto(`${t.baseUrl}/login`);
    const form = page.getByRole("form", { name: "Log in" });
    await form.getByLabel("Email").fill(EMAIL);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Log In" }).click();
  }

  it("signs up, confirms through the emailed link, logs in and lands on the dashboard", async () => {
    await page.goto(`${t.baseUrl}/signup`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByText(MESSAGES.signupSuccess).waitFor();

    await logIn(PASSWORD);
    await page.getByText(MESSAGES.emailNotConfirmed).waitFor();

    const link = linkIn(await t.smtp.waitFor(EMAIL, "Confirm"), "/confirm-email");
    await page.goto(link.toString());
    await page.getByText(MESSAGES.emailConfirmed).waitFor();

    await logIn(PASSWORD);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
    expect(await page.locator("header .product-title").textContent()).toBe("Warden");
    await screenshot(page, "auth-dashboard");
  });

  it("highlights the sidebar link of the current page as the visitor navigates", async () => {
    const nav = page.getByRole("navigation", { name: "Console" });
    const active = () => nav.locator("a.active").allTextContents();
    await expect.poll(active).toEqual(["Dashboard"]);
    for (const [label, path] of [
      ["Rules", "/homepage/rules"],
      ["Templates", "/homepage/templates"],
      ["Block lists", "/homepage/block-lists"],
      ["Screenings", "/homepage/screenings"],
      ["Dashboard", "/homepage/dashboard"],
    ] as const) {
      await nav.getByRole("link", { name: label }).click();
      await page.waitForURL(`${t.baseUrl}${path}`);
      await expect.poll(active).toEqual([label]);
    }
    await page.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL(`${t.baseUrl}/homepage/settings`);
    await expect.poll(active).toEqual([]);
  });

  it("sends / to the dashboard when signed in, and /homepage to /homepage/dashboard", async () => {
    await page.goto(`${t.baseUrl}/`);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    await page.goto(`${t.baseUrl}/homepage`);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
  });

  it("changes the password in Settings, checking the confirmation and the current password first", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const form = page.getByRole("form", { name: "Change Password" });
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByLabel("New password", { exact: true }).fill("mismatch one 1");
    await form.getByLabel("Confirm new password").fill("mismatch two 2");
    await form.getByRole("button", { name: "Update Password" }).click();
    await form.getByText(MESSAGES.passwordsDoNotMatch).waitFor();
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password", { exact: true }).fill(PASSWORD);
    await form.getByLabel("Confirm new password").fill(PASSWORD);
    await form.getByRole("button", { name: "Update Password" }).click();
    await form.getByText(MESSAGES.currentPasswordWrong).waitFor();
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByRole("button", { name: "Update Password" }).click();
    await form.getByText(MESSAGES.passwordUpdated).waitFor();
    expect(await form.getByLabel("Current password").inputValue()).toBe("");
    const notice = await t.smtp.waitFor(EMAIL, "Your Warden password was changed");
    expect(notice.text).toContain("/forgot-password");
  });

  it("logs off to /login, after which /homepage/rules sends the visitor to /login", async () => {
    await page.getByRole("button", { name: "Log off" }).click();
    await page.waitForURL(`${t.baseUrl}/login`);
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.waitForURL(`${t.baseUrl}/login`);
  });

  it("resets a forgotten password through the emailed link and logs in with the new one", async () => {
    await page.goto(`${t.baseUrl}/login`);
    const forgot = page.getByRole("form", { name: "Forgot your password?" });
    await forgot.getByLabel("Email").fill(EMAIL);
    await forgot.getByRole("button", { name: "Send Reset Email" }).click();
    await forgot.getByText(MESSAGES.resetEmailSent).waitFor();

    const link = linkIn(await t.smtp.waitFor(EMAIL, "Reset"), "/reset-password");
    await page.goto(link.toString());
    const form = page.getByRole("form", { name: "Choose a new password" });
    await form.waitFor();
    await form.getByRole("button", { name: "Update Password" }).click();
    await form.getByText(MESSAGES.resetFieldsRequired).waitFor();
    await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel("Confirm new password").fill(`${NEW_PASSWORD}x`);
    await form.getByRole("button", { name: "Update Password" }).click();
    await form.getByText(MESSAGES.passwordsDoNotMatch).waitFor();
    await form.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    const started = Date.now();
    await form.getByRole("button", { name: "Update Password" }).click();
    await page.getByText(MESSAGES.resetDone).waitFor();
    await page.waitForURL(`${t.baseUrl}/login`);
    // 2000 ms after success, not restarted by re-renders along the way.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(3500);

    await page.goto(link.toString());
    await page.getByText(MESSAGES.invalidLinkTitle).waitFor();
    await page.getByText(MESSAGES.invalidLinkBody).waitFor();
    await page.getByRole("link", { name: "Request a new reset link" }).click();
    await page.waitForURL(`${t.baseUrl}/forgot-password`);
    await page.getByRole("button", { name: "Send Reset Email" }).waitFor();

    await page.goto(`${t.baseUrl}/reset-password?tokenHash=abc&type=signup&email=${EMAIL}`);
    await page.getByRole("heading", { name: MESSAGES.invalidLink }).waitFor();

    await logIn(NEW_PASSWORD);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
  });
});
