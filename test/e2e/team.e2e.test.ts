/**
 * Teammates in real Chromium against the real app: the owner invites an analyst from the Team
 * page; the invitee, in a browser of their own, opens the emailed link (signed out it says how
 * to log in; signed in it offers Accept), joins, finds the header's account switch and
 * switches to their own account and back.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { linkIn } from "../helpers/smtp.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("teammates in Chromium", () => {
  let t: TestApp;
  let owner: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let invitee: Merchant;
  let second: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    ({ t, merchant: owner, browser, page } = await openConsole("team-owner@example.com"));
    invitee = await signedInMerchant(t, "team-analyst@example.com");
    second = await launchBrowser();
  });
  afterAll(async () => {
    await second?.close();
    await closeConsole({ t, browser });
  });

  it("invites an analyst from the Team page", async () => {
    await page.goto(`${t.baseUrl}/homepage/team`);
    await page.getByRole("heading", { name: "Team", exact: true }).waitFor();
    const members = page.getByRole("table", { name: "Members" });
    await members.locator(`tr[data-member="${owner.email}"]`).getByText("you").waitFor();
    // The last owner's own role is not theirs to change, nor can they leave.
    expect(await members.getByRole("combobox").count()).toBe(0);
    await page.getByText("You are the last owner: transfer ownership first.").waitFor();

    const form = page.getByRole("form", { name: "Invite a member" });
    await form.getByLabel("Email").fill("not an email");
    await form.getByRole("button", { name: "Send invitation" }).click();
    await form.getByText("Please enter a valid email.").waitFor();

    await form.getByLabel("Email").fill(invitee.email);
    await form.getByLabel("Role").selectOption("analyst");
    const sent = page.waitForResponse((r) => r.url().includes("/trpc/team.invite"));
    await form.getByRole("button", { name: "Send invitation" }).click();
    expect((await sent).status()).toBe(200);
    await page.getByRole("status").getByText(`Invitation sent to ${invitee.email}.`).waitFor();
    const pending = page.getByRole("list", { name: "Pending invitations" });
    expect(await pending.locator(`li[data-invite="${invitee.email}"]`).innerText()).toContain(
      "Analyst",
    );
    const matrix = page.getByRole("table", { name: "What each role may do" });
    expect(await matrix.locator("thead").innerText()).toMatch(/Owner\s+Admin\s+Analyst\s+Viewer/);
    // The owner may change the security settings.
    const security = page.getByRole("form", { name: "Security settings" });
    expect(await security.getByLabel("Keep audit log events for (days)").isEnabled()).toBe(true);
    await screenshot(page, "team-page");
  });

  it("lets the invitee accept the emailed link, then switch accounts in the header", async () => {
    const mail = await t.smtp.waitFor(invitee.email, "invited you");
    const link = linkIn(mail, "/invite").toString();
    const other = await second.newPage();

    // Signed out: who invites whom, and how to accept.
    await other.goto(link);
    await other
      .getByText(`${owner.email} invited you to join ${owner.email} on Warden as Analyst.`)
      .waitFor();
    await other.getByRole("link", { name: "Log in" }).waitFor();
    await other.getByRole("link", { name: "Sign up" }).waitFor();

    // Signed in as the invitee: Accept joins and opens the console in the owner's account.
    await signInAs(second.context, t.baseUrl, invitee.token);
    await other.goto(link);
    await other.getByRole("button", { name: "Accept the invitation" }).click();
    await other.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    const switcher = other.getByRole("combobox", { name: "Account" });
    await switcher.waitFor();
    expect(await switcher.inputValue()).toBe(owner.accountId);
    expect(await switcher.locator("option").allInnerTexts()).toEqual([
      `${invitee.email} (Owner)`,
      `${owner.email} (Analyst)`,
    ]);

    // As an analyst in the owner's account: the team is read-only.
    await other.goto(`${t.baseUrl}/homepage/team`);
    await other.getByRole("heading", { name: "Members" }).waitFor();
    await other.getByText("You are an Analyst in this account.").waitFor();
    expect(await other.getByRole("form", { name: "Invite a member" }).count()).toBe(0);
    const security = other.getByRole("form", { name: "Security settings" });
    expect(await security.getByLabel("Keep audit log events for (days)").isDisabled()).toBe(true);

    // Switching to their own account: the dashboard of that account, as its owner.
    await switcher.selectOption(invitee.accountId);
    await other.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    await other.waitForFunction(
      (id) =>
        (document.querySelector('select[name="account"]') as HTMLSelectElement | null)?.value ===
        id,
      invitee.accountId,
    );
    await other.goto(`${t.baseUrl}/homepage/team`);
    await other.getByText("You are an Owner in this account.").waitFor();
    await screenshot(other, "team-switched-account");

    // The owner's Team page lists the new analyst.
    await page.reload();
    const row = page
      .getByRole("table", { name: "Members" })
      .locator(`tr[data-member="${invitee.email}"]`);
    expect(await row.getByRole("combobox").inputValue()).toBe("analyst");
  });
});
