/**
 * Teammates in real Chromium against the real app: the owner names the account and invites
 * an analyst from the Team page; the invitee, in a browser of their own, opens the emailed
 * link, logs in from it and comes back to it, accepts in one click, finds the account's name
 * in the header's switch and switches to their own account. A person new to Warden opens
 * their link, chooses a password and is in the inviting account at once, with no other.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, launchBrowser, screenshot, signInAs } from "../helpers/browser.ts";
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

    // The owner names the account: invitations and the switch say it.
    const naming = page.getByRole("form", { name: "Account name" });
    await naming.getByLabel("Name").fill("Acme Shop");
    await naming.getByRole("button", { name: "Save account name" }).click();
    await naming.getByRole("status").getByText("Account name saved.").waitFor();

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

  it("lets a member log in from the emailed link, accept in one click and switch accounts", async () => {
    const mail = await t.smtp.waitFor(invitee.email, "invited you");
    expect(mail.subject).toBe(`${owner.email} invited you to Acme Shop on Warden`);
    const link = linkIn(mail, "/invite");
    const other = await second.newPage();

    // Signed out: who invites whom, a password to choose, or a login that comes back here.
    await other.goto(link.toString());
    await other
      .getByText(`${owner.email} invited you to join Acme Shop on Warden as Analyst.`)
      .waitFor();
    await other.getByRole("button", { name: "Join Acme Shop" }).waitFor();
    await other.getByRole("link", { name: "Log in" }).click();
    const login = other.getByRole("form", { name: "Log in" });
    await login.getByLabel("Email").fill(invitee.email);
    await login.getByLabel("Password").fill(invitee.password);
    await login.getByRole("button", { name: "Log In" }).click();
    await other.waitForURL(`${t.baseUrl}${link.pathname}${link.search}`);

    // Back on the link, signed in as the invitee: one click joins.
    await other.getByRole("button", { name: "Accept the invitation" }).click();
    await other.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    const switcher = other.getByRole("combobox", { name: "Account" });
    await switcher.waitFor();
    await other.waitForFunction(
      (id) => document.querySelector(".account-switch-button")?.getAttribute("data-account") === id,
      owner.accountId,
    );
    expect(await switcher.innerText()).toMatch(/Acme Shop\s+Analyst/);
    await switcher.click();
    const options = other.getByRole("listbox", { name: "Accounts" }).getByRole("option");
    expect((await options.allInnerTexts()).map((text) => text.replace(/\s+/g, " "))).toEqual([
      `${invitee.email} Owner`,
      "Acme Shop Analyst · current",
    ]);
    // What the person sees, not the whole page (a phone's fixed bar would land mid-page).
    await other.screenshot({ path: join(ARTIFACTS_DIR, "47-switcher-1280.png") });
    await other.setViewportSize({ width: 375, height: 740 });
    await other.getByRole("option", { name: /Acme Shop/ }).waitFor();
    const list = await other.getByRole("listbox", { name: "Accounts" }).boundingBox();
    expect(list && list.x >= 0 && list.x + list.width <= 375).toBe(true);
    await other.screenshot({ path: join(ARTIFACTS_DIR, "47-switcher-375.png") });
    await other.keyboard.press("Escape");
    expect(await options.count()).toBe(0);
    await other.setViewportSize({ width: 1280, height: 800 });

    // As an analyst in the owner's account: the team is read-only.
    await other.goto(`${t.baseUrl}/homepage/team`);
    await other.getByRole("heading", { name: "Members" }).waitFor();
    await other.getByText("You are an Analyst in this account.").waitFor();
    expect(await other.getByRole("form", { name: "Invite a member" }).count()).toBe(0);
    const security = other.getByRole("form", { name: "Security settings" });
    expect(await security.getByLabel("Keep audit log events for (days)").isDisabled()).toBe(true);

    // Switching to their own account: the dashboard of that account, as its owner.
    // By keyboard: the list opens on the current account; up one, Enter.
    await switcher.focus();
    await other.keyboard.press("ArrowDown");
    expect(await switcher.getAttribute("aria-expanded")).toBe("true");
    await other.keyboard.press("ArrowUp");
    const activeId = await switcher.getAttribute("aria-activedescendant");
    expect(await other.locator(`[id="${activeId}"]`).innerText()).toContain(invitee.email);
    await other.keyboard.press("Enter");
    await other.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    await other.waitForFunction(
      (id) => document.querySelector(".account-switch-button")?.getAttribute("data-account") === id,
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

  it("lets a person new to Warden choose a password on the emailed link and be in at once", async () => {
    const email = "team-newcomer@example.com";
    expect(await owner.browser.mutate("team.invite", { email, role: "viewer" })).toMatchObject({
      ok: true,
    });
    const link = linkIn(await t.smtp.waitFor(email, "invited you"), "/invite").toString();
    const fresh = await launchBrowser();
    try {
      const newcomer = await fresh.newPage();
      // Signed in as someone else (the owner, on a shared computer): told so, with a way out.
      await signInAs(fresh.context, t.baseUrl, owner.token);
      await newcomer.goto(link);
      await newcomer
        .getByText(
          `This invitation is for ${email}, and you are signed in as ${owner.email}. Log out, then join or log in as ${email} to accept it.`,
        )
        .waitFor();
      await newcomer.getByRole("button", { name: "Log out" }).click();
      const form = newcomer.getByRole("form", { name: "Join with a new password" });
      await form.getByText(`Choose a password for ${email}`).waitFor();
      await form.getByLabel("Choose a password").fill("newcomer password");
      await form.getByRole("button", { name: "Join Acme Shop" }).click();
      await newcomer.waitForURL(`${t.baseUrl}/homepage/dashboard`);
      await newcomer.getByRole("button", { name: "Log off" }).waitFor();
      // In the inviting account only: no switch, no account of their own.
      expect(await newcomer.getByRole("combobox", { name: "Account" }).count()).toBe(0);
      await newcomer.goto(`${t.baseUrl}/homepage/team`);
      await newcomer.getByText("You are a Viewer in this account.").waitFor();
      const user = await t.prisma.user.findUniqueOrThrow({
        where: { email },
        include: { memberships: true },
      });
      expect(user.accountId).toBe(owner.accountId);
      expect(user.memberships.map((m) => m.accountId)).toEqual([owner.accountId]);
      // No confirmation mail: the invitation proved the address.
      expect(t.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
      await screenshot(newcomer, "47-newcomer-joined");

      // Later they ask for an account of their own: it opens, and the switch shows both.
      const own = newcomer.getByRole("region", { name: "An account of your own" });
      await own.getByLabel("Account name").fill("Side App");
      await own.getByRole("button", { name: "Create the account" }).click();
      await newcomer.waitForURL(`${t.baseUrl}/homepage/dashboard`);
      const accountSwitch = newcomer.getByRole("combobox", { name: "Account" });
      await accountSwitch.waitFor();
      expect(await accountSwitch.innerText()).toContain("Side App");
      await accountSwitch.click();
      const names = await newcomer.getByRole("option").allInnerTexts();
      const invitedAs = await t.prisma.account.findUniqueOrThrow({
        where: { id: owner.accountId },
      });
      expect(names.map((n) => n.replace(/\s+/g, " ").trim()).sort()).toEqual(
        [`${invitedAs.name || owner.email} Viewer`, "Side App Owner · current"].sort(),
      );
    } finally {
      await fresh.close();
    }
  });
});
