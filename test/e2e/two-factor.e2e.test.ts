/**
 * Two-factor sign-in in real Chromium: a merchant turns it on in Settings (the key read off the
 * page, each code computed here by an RFC 6238 implementation of the test's own, from the
 * app's test clock), saves the recovery codes, logs off, and logs in with the password and a
 * code; a reload mid-sign-in comes back to the code; then in with a recovery code, which is
 * refused the second time, and which says how many codes are left (with the way to new ones
 * when few are).
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recoveryCodeHash } from "../../server/modules/two-factor/second-factor-code.ts";
import { MESSAGES } from "../../shared/messages.ts";
import { screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { totp } from "../helpers/totp.ts";

const STEP_MS = 30_000;

describe("two-factor sign-in in Chromium", () => {
  let opened: ConsoleBrowser;
  let page: Page;
  let secret = "";
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    opened = await openConsole("two-factor@example.com");
    page = opened.page;
  });
  afterAll(async () => {
    await closeConsole(opened);
  });

  /** The code an authenticator app shows now, by the server's (test) clock. */
  const currentCode = () => totp(secret, opened.t.clock.now());
  /** A code is good once: later sign-ins wait for the next 30-second step. */
  const nextStep = () => opened.t.clock.advance(STEP_MS);
  const section = () => page.getByRole("region", { name: "Two-factor sign-in" });
  const codeStep = () => page.getByRole("form", { name: "Two-factor code" });

  async function logOff() {
    await page.getByRole("button", { name: "Log off" }).click();
    await page.waitForURL(`${opened.t.baseUrl}/login`);
  }

  async function logInWithPassword() {
    const form = page.getByRole("form", { name: "Log in" });
    await form.getByLabel("Email").fill(opened.merchant.email);
    await form.getByLabel("Password").fill(opened.merchant.password);
    await form.getByRole("button", { name: "Log In" }).click();
    await codeStep().waitFor();
  }

  async function giveCode(code: string) {
    await codeStep().getByRole("textbox").fill(code);
    await codeStep().getByRole("button", { name: "Verify" }).click();
  }

  it("turns on in Settings: the key on the page, a code from the app, ten recovery codes saved", async () => {
    await page.goto(`${opened.t.baseUrl}/homepage/settings`);
    await section().getByText("Off.").waitFor();
    await section().getByRole("button", { name: "Turn on two-factor sign-in" }).click();

    await section().getByLabel("Your password").fill("not my password");
    await section().getByRole("button", { name: "Continue" }).click();
    await section().getByRole("alert").getByText(MESSAGES.currentPasswordWrong).waitFor();
    await section().getByLabel("Your password").fill(opened.merchant.password);
    await section().getByRole("button", { name: "Continue" }).click();

    const key = section().getByLabel("Secret key");
    await key.waitFor();
    const shown = await key.inputValue();
    expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    secret = shown.replaceAll(" ", "");
    await section()
      .getByRole("img", { name: /QR code/ })
      .waitFor();
    const uri = await section()
      .getByRole("link", { name: "Open in an authenticator app on this device" })
      .getAttribute("href");
    expect(uri).toContain(`secret=${secret}`);
    await screenshot(page, "two-factor-enrol");

    await section().getByLabel("Enter the 6-digit code the app shows").fill(currentCode());
    await section().getByRole("button", { name: "Turn on" }).click();
    const codesBox = page.getByRole("region", { name: "Recovery codes" });
    await codesBox.waitFor();
    recoveryCodes = await codesBox.locator("li code").allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      codesBox.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("warden-recovery-codes.txt");
    const file = await readFile(await download.path(), "utf8");
    for (const code of recoveryCodes) expect(file).toContain(code);
    await screenshot(page, "two-factor-recovery-codes");

    await codesBox.getByRole("button", { name: "I saved them" }).click();
    await section().getByText("10 of 10 recovery codes left.").waitFor();
    expect(await section().getByRole("status").textContent()).toMatch(/^On since /);
  });

  it("logs in with the password, then a code from the app; a reload in between comes back to the code", async () => {
    await logOff();
    nextStep();
    await logInWithPassword();
    await expect
      .poll(() =>
        codeStep().getByLabel("Enter the 6-digit code from your authenticator app").count(),
      )
      .toBe(1);

    // Reloaded mid-sign-in, the console sends the half-signed-in session back to the code.
    await page.goto(`${opened.t.baseUrl}/homepage/dashboard`);
    await page.waitForURL(`${opened.t.baseUrl}/login?step=two-factor`);
    await codeStep().waitFor();

    const wrong = currentCode() === "000000" ? "111111" : "000000";
    await giveCode(wrong);
    await codeStep().getByRole("alert").getByText(MESSAGES.twoFactorCodeWrong).waitFor();
    await screenshot(page, "two-factor-login");

    await giveCode(currentCode());
    await page.waitForURL(`${opened.t.baseUrl}/homepage/dashboard`);
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
  });

  it("logs in with a recovery code instead, and that code is refused the second time", async () => {
    const [first = "", second = ""] = recoveryCodes;
    await logOff();
    await logInWithPassword();
    await codeStep().getByRole("button", { name: "Use a recovery code instead" }).click();
    await giveCode(first);
    // Before the console opens, the person reads how many codes are left.
    await page
      .getByRole("status")
      .getByText("Signed in with a recovery code: you have 9 recovery codes left.")
      .waitFor();
    expect(await page.getByRole("link", { name: "Settings → Two-factor sign-in" }).count()).toBe(0);
    await page.getByRole("button", { name: "Continue to the console" }).click();
    await page.waitForURL(`${opened.t.baseUrl}/homepage/dashboard`);

    await logOff();
    await logInWithPassword();
    await codeStep().getByRole("button", { name: "Use a recovery code instead" }).click();
    await giveCode(first);
    await codeStep().getByRole("alert").getByText(MESSAGES.twoFactorCodeWrong).waitFor();
    expect(page.url()).toContain("/login");

    await giveCode(second);
    await page.getByText("you have 8 recovery codes left.").waitFor();
    await page.getByRole("button", { name: "Continue to the console" }).click();
    await page.waitForURL(`${opened.t.baseUrl}/homepage/dashboard`);
    await page.goto(`${opened.t.baseUrl}/homepage/settings`);
    await section().getByText("8 of 10 recovery codes left.").waitFor();
    expect(
      await section()
        .getByText(/^Only \d+ recovery/)
        .count(),
    ).toBe(0);

    // With few left (codes spent elsewhere, here straight in the table), the person is urged
    // to make new ones, with the way there.
    const user = await opened.t.prisma.user.findUniqueOrThrow({
      where: { email: opened.merchant.email },
    });
    await opened.t.prisma.recoveryCode.updateMany({
      where: { userId: user.id, codeHash: { in: recoveryCodes.slice(2, 7).map(recoveryCodeHash) } },
      data: { usedAt: new Date() },
    });
    await logOff();
    await logInWithPassword();
    await codeStep().getByRole("button", { name: "Use a recovery code instead" }).click();
    await giveCode(recoveryCodes[7] ?? "");
    await page
      .getByRole("status")
      .getByText("Signed in with a recovery code: you have 2 recovery codes left.")
      .waitFor();
    const settings = page.getByRole("link", { name: "Settings → Two-factor sign-in" });
    await screenshot(page, "two-factor-few-codes-left");
    await settings.click();
    await page.waitForURL(`${opened.t.baseUrl}/homepage/settings#two-factor`);
    await section().getByText("2 of 10 recovery codes left.").waitFor();
    await section()
      .getByText("Only 2 recovery codes are left: make new ones below before you run out.")
      .waitFor();
  });

  it("says Settings saved! once an owner who has it requires two-factor sign-in of every member", async () => {
    await page.goto(`${opened.t.baseUrl}/homepage/team`);
    const form = page.getByRole("form", { name: "Security settings" });
    const required = form.getByRole("checkbox", {
      name: "Require two-factor sign-in for every member",
    });
    await required.check();
    await form.getByRole("button", { name: "Save security settings" }).click();
    await form.getByRole("status").getByText(MESSAGES.settingsSaved).waitFor();
    expect(await required.isChecked()).toBe(true);
    expect(
      await opened.t.prisma.account.findUniqueOrThrow({
        where: { id: opened.merchant.accountId },
      }),
    ).toMatchObject({ requireTwoFactor: true });
    await required.uncheck();
    await form.getByRole("button", { name: "Save security settings" }).click();
    await expect
      .poll(
        async () =>
          (
            await opened.t.prisma.account.findUniqueOrThrow({
              where: { id: opened.merchant.accountId },
            })
          ).requireTwoFactor,
      )
      .toBe(false);
  });

  it("an account that requires two-factor sends a member without it to set it up before the console", async () => {
    const { t } = opened;
    const member = await signedInMerchant(t, "required@example.com");
    await t.prisma.account.update({
      where: { id: member.accountId },
      data: { requireTwoFactor: true },
    });
    await signInAs(page.context(), t.baseUrl, member.token);
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await page.waitForURL(`${t.baseUrl}/login?step=enrol`);
    await page.getByRole("heading", { name: "Set up two-factor sign-in" }).waitFor();

    await page.getByLabel("Your password").fill(member.password);
    await page.getByRole("button", { name: "Continue" }).click();
    const memberSecret = (await page.getByLabel("Secret key").inputValue()).replaceAll(" ", "");
    await page
      .getByLabel("Enter the 6-digit code the app shows")
      .fill(totp(memberSecret, t.clock.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    const codesBox = page.getByRole("region", { name: "Recovery codes" });
    await codesBox.getByRole("button", { name: "I saved them" }).click();
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
  });
});
