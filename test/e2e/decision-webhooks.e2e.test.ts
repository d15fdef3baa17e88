/**
 * The decision loop end to end in real Chromium: a merchant adds a webhook endpoint in
 * Settings (a real local receiver), labels and clears a review from the queue, and the
 * receiver gets label.created and review.approved with signatures that verify with the
 * secret shown once; the delivery log in Settings shows them delivered.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/client/index.ts";
import { ARTIFACTS_DIR, launchBrowser, signInAs } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

describe("decision webhooks in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp("embedded", { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
    merchant = await signedInMerchant(t, "webhooks-e2e@example.com");
    browser = await launchBrowser();
    await signInAs(browser.context, t.baseUrl, merchant.token);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  it("labels and clears a review, and the receiver gets both events signed", async () => {
    await page.goto(`${t.baseUrl}/homepage/settings`);
    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    await form.getByLabel("Endpoint URL").fill(receiver.url);
    const events = form.getByRole("group", { name: "Events" });
    for (const type of ["screening.blocked", "review.denied"]) {
      await events.getByRole("checkbox", { name: type }).uncheck();
    }
    await events.getByRole("checkbox", { name: "label.created" }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("region", { name: "New signing secret" });
    const secret = await shown.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("list", { name: "Endpoints" }).getByText(receiver.url).waitFor();

    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    const review = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      user_id: "u-e2e",
    });
    expect(review.decision).toBe("review");

    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator(`li.rv-card[data-id="${review.id}"]`);
    await card.getByRole("button", { name: "Label fraud" }).click();
    await expect.poll(() => card.locator("[data-label]").innerText()).toMatch(/^fraud/);
    await card.getByLabel("Note").fill("verified by phone");
    await card.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Nothing to review.").waitFor();

    await expect
      .poll(() => receiver.types(), { timeout: 15_000 })
      .toEqual(["label.created", "review.approved"]);
    for (const delivery of receiver.received) {
      const verified = await verifyWebhook(
        delivery.body,
        delivery.headers["warden-signature"] as string,
        secret,
      );
      expect(verified).toMatchObject({ ok: true });
    }
    expect(receiver.ofType("review.approved")?.data).toMatchObject({
      review: { screening_id: review.id, status: "approved", by: merchant.email },
    });

    await page.goto(`${t.baseUrl}/homepage/settings`);
    const log = page.getByRole("table", { name: "Deliveries" });
    await expect.poll(() => log.locator('tr[data-status="delivered"]').count()).toBe(2);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page
      .locator('section[aria-labelledby="webhooks-title"]')
      .screenshot({ path: join(ARTIFACTS_DIR, "webhook-log.png") });
  });
});
