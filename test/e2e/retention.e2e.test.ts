/**
 * Settings → Data retention in real Chromium: the owner sees every kind with its default,
 * changes the screenings' retention, sees what keeping counting identities under a year would
 * break before saving, saves, and finds both after a reload; a viewer sees the same section
 * read-only.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";

describe("data retention in Chromium", () => {
  let t: TestApp;
  let owner: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;

  beforeAll(async () => {
    ({ t, merchant: owner, browser, page } = await openConsole("retention-owner@example.com"));
  });
  afterAll(async () => {
    await closeConsole({ t, browser });
  });

  const form = () => page.getByRole("form", { name: "Data retention" });

  it("lets the owner change retention, warns about what it breaks, and keeps it", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await page.getByRole("heading", { name: "Data retention" }).waitFor();
    const kinds = form().locator("li.retention-kind");
    await kinds.first().waitFor();
    expect(await kinds.locator("label").allInnerTexts()).toEqual([
      "Screenings",
      "Browser signals from warden.js",
      "Counting identities",
      "Webhook deliveries",
      "Audit log",
      "Charges' personal fields",
    ]);
    expect(await form().getByRole("spinbutton", { name: "Screenings" }).inputValue()).toBe("90");
    expect(await form().locator('li[data-kind="identities"]').innerText()).toContain("digests");

    await form().getByRole("spinbutton", { name: "Screenings" }).fill("30");
    const identities = form().getByRole("spinbutton", { name: "Counting identities" });
    await identities.fill("200");
    // The warning shows as it is typed, before anything is saved.
    const warning = form().getByRole("note", { name: "Counting identities: what this breaks" });
    await warning
      .getByText(
        "rule_ip looks back 365 days: a trial started with the same email, card or device more than 200 days ago will not count.",
      )
      .waitFor();
    expect(
      await t.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } }),
    ).toMatchObject({ screeningRetentionDays: null, identityRetentionDays: null });
    // Back at the default, the warning goes.
    await identities.fill("400");
    await warning.waitFor({ state: "detached" });
    await identities.fill("200");
    await warning.waitFor();
    await screenshot(page, "retention-warning");

    const saved = page.waitForResponse((r) => r.url().includes("/trpc/retention.put"));
    await form().getByRole("button", { name: "Save retention" }).click();
    expect((await saved).status()).toBe(200);
    await form().getByRole("status").getByText("saved", { exact: false }).waitFor();

    await page.reload();
    await form().getByRole("spinbutton", { name: "Screenings" }).waitFor();
    expect(await form().getByRole("spinbutton", { name: "Screenings" }).inputValue()).toBe("30");
    expect(await form().getByRole("spinbutton", { name: "Counting identities" }).inputValue()).toBe(
      "200",
    );
    await form().getByRole("note", { name: "Counting identities: what this breaks" }).waitFor();
    expect(
      await t.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } }),
    ).toMatchObject({ screeningRetentionDays: 30, identityRetentionDays: 200 });
  });

  it("shows a viewer the same settings, read-only", async () => {
    const viewer = await signedInMerchant(t, "retention-viewer@example.com");
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: viewer.email } });
    await t.prisma.membership.create({
      data: { accountId: owner.accountId, userId: user.id, role: "viewer" },
    });
    const { token } = await t.app.services.sessions.create(user.id, owner.accountId);
    await signInAs(browser.context, t.baseUrl, token);
    const viewerPage = await browser.newPage();
    try {
      await viewerPage.goto(`${t.baseUrl}/homepage/settings`);
      const section = viewerPage.locator("section.retention");
      const retention = section.getByRole("form", { name: "Data retention" });
      await retention.getByRole("spinbutton", { name: "Screenings" }).waitFor();
      expect(await retention.getByRole("spinbutton", { name: "Screenings" }).inputValue()).toBe(
        "30",
      );
      expect(await retention.getByRole("spinbutton", { name: "Screenings" }).isDisabled()).toBe(
        true,
      );
      expect(await retention.getByRole("button", { name: "Save retention" }).isDisabled()).toBe(
        true,
      );
      await section.getByText("You are a viewer in this account").waitFor();
      await screenshot(viewerPage, "retention-viewer");
    } finally {
      await viewerPage.close();
    }
  });
});
