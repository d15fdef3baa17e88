/**
 * What a role may not change, the console does not offer: in real Chromium, a viewer of the
 * owner's account sees the Rules page with its switches off and a note saying why, and the
 * Review queue with its decision and label buttons off; an analyst may decide the same review.
 * (The server refuses either way: test/access-sweep.int.test.ts.)
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../shared/team/roles.ts";
import { launchBrowser, signInAs } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe("the console as each role, in Chromium", () => {
  let t: TestApp;
  let owner: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    t = await startTestApp("embedded");
    owner = await signedInMerchant(t, "owner@roles.example");
    await turnOn(owner, "rule_scraping");
    const backend = await backendOf(t, owner);
    const review = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      email: "bot@roles.example",
      ip: "198.51.100.40",
    });
    expect(review.decision).toBe("review");
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page signed in as a new member of the owner's account with `role`. */
  async function pageAs(role: Role): Promise<Page> {
    const person = await signedInMerchant(t, `${role}@roles.example`);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: person.email } });
    await t.prisma.membership.create({
      data: { accountId: owner.accountId, userId: user.id, role },
    });
    const { token } = await t.app.services.sessions.create(user.id, owner.accountId);
    await signInAs(browser.context, t.baseUrl, token);
    return browser.newPage();
  }

  it("shows a viewer the rules and the review queue, with nothing they could change", async () => {
    const page = await pageAs("viewer");
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByText("You are a viewer in this account").waitFor();
    const switches = page.getByRole("switch");
    await switches.first().waitFor();
    expect(await switches.count()).toBeGreaterThan(0);
    for (const item of await switches.all()) expect(await item.isDisabled()).toBe(true);

    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator("li.rv-card").first();
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Deny" }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Label fraud" }).isDisabled()).toBe(true);
    await page.close();
  });

  it("lets an analyst decide the same review, and keeps the rules out of their hands", async () => {
    const page = await pageAs("analyst");
    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator("li.rv-card").first();
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Approve" }).isDisabled()).toBe(false);
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByText("You are an analyst in this account").waitFor();
    await page.close();
  });
});
