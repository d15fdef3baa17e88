/**
 * Settings' webhook endpoints in real Chromium: every endpoint of an account past the cap is
 * listed (no silent first 100) and Add is refused with the cap named; an endpoint disabled for
 * failing says since when, and Re-enable brings it back.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, launchBrowser, signInAs } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe("webhook endpoint health in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp("embedded", {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_ENDPOINTS_PER_ACCOUNT: "5" },
    });
    merchant = await signedInMerchant(t, "endpoint-health-e2e@example.com");
    browser = await launchBrowser();
    await signInAs(browser.context, t.baseUrl, merchant.token);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("lists all 105 endpoints past the cap, shows a disabled one's notice, and re-enables it", async () => {
    await t.prisma.webhookEndpoint.createMany({
      data: Array.from({ length: 105 }, (_, i) => ({
        accountId: merchant.accountId,
        url: `http://127.0.0.1:9/hook-${i}`,
        events: ["label.created"],
        secretCipher: "unused",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        ...(i === 104
          ? {
              failingSince: new Date(Date.UTC(2026, 0, 2)),
              disabledAt: new Date(Date.UTC(2026, 0, 5)),
              disabledReason: "HTTP 500",
            }
          : {}),
      })),
    });
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const list = page.getByRole("list", { name: "Endpoints" });
    await list.getByText("http://127.0.0.1:9/hook-104").waitFor();
    expect(await list.getByRole("listitem").count()).toBe(105);
    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    await form.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/one-more");
    await form.getByText("105 of at most 5 endpoints: remove one to add another.").waitFor();
    expect(await form.getByRole("button", { name: "Add endpoint" }).isDisabled()).toBe(true);

    const disabled = list.getByRole("listitem").filter({ hasText: "hook-104" });
    const notice = disabled.getByRole("status");
    expect(await notice.innerText()).toMatch(/^Disabled on .+ after failing since .+ \(HTTP 500\)/);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await disabled.screenshot({ path: join(ARTIFACTS_DIR, "webhook-endpoint-disabled.png") });
    await disabled.getByRole("button", { name: "Re-enable" }).click();
    await notice.waitFor({ state: "detached" });
    const row = await t.prisma.webhookEndpoint.findFirstOrThrow({
      where: { accountId: merchant.accountId, url: "http://127.0.0.1:9/hook-104" },
    });
    expect(row).toMatchObject({ disabledAt: null, failingSince: null, disabledReason: null });
  });
});
