/**
 * The review queue in real Chromium against the real app: the sidebar's open count, items
 * oldest first with the identity they share, approve from the keyboard, deny with a note,
 * a label from the queue, and the page at 375 px; a charge the rules review (delivered as a
 * signed Stripe webhook) in the queue and its Kind filter, and a label from a dashboard row.
 */
import type { Page } from "playwright-core";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";

const BOT = "python-requests/2.31";

describe("review queue in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("review-queue@example.com"));
    backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
    for (const [user, email] of [
      ["u-first", "first@example.com"],
      ["u-second", "second@example.com"],
      ["u-third", "third@example.com"],
    ]) {
      const answer = await backend.decide({
        type: "request",
        user_agent: BOT,
        device_id: "dev-shared",
        user_id: user,
        email,
      });
      expect(answer.decision).toBe("review");
      ids.push(answer.id);
      t.clock.advance(60_000);
    }
    const labelled = await backend.client.json("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: ids[0], label: "fraud" },
    });
    expect(labelled.status).toBe(200);
  });
  afterAll(() => closeConsole({ t, browser }));

  const status = async (id: string | undefined) =>
    (await t.prisma.screening.findUniqueOrThrow({ where: { id } })).reviewStatus;
  const card = (id: string | undefined) => page.locator(`li.rv-card[data-id="${id}"]`);

  it("shows the open count and the items oldest first, with what they share", async () => {
    await page.goto(`${t.baseUrl}/homepage/review`);
    await page.getByRole("heading", { name: "Review", exact: true }).waitFor();
    const link = page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: /Review/ });
    await expect.poll(() => link.innerText()).toMatch(/Review\s*3/);
    await card(ids[2]).waitFor();
    expect(
      await page
        .locator("li.rv-card")
        .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-id"))),
    ).toEqual(ids);
    expect(await card(ids[2]).innerText()).toContain(
      "2 earlier events from this device, 1 labelled fraud",
    );
    expect(await card(ids[0]).locator("[data-label]").innerText()).toMatch(/^fraud/);
    await screenshot(page, "review-queue");
  });

  it("approves with the keyboard, denies with a note, and labels from the queue", async () => {
    // j moves to the second item; a approves it.
    await page.locator("h1").click();
    await page.keyboard.press("j");
    await expect.poll(() => card(ids[1]).getAttribute("aria-current")).toBe("true");
    await page.keyboard.press("a");
    await expect.poll(() => status(ids[1])).toBe("approved");
    await card(ids[1]).waitFor({ state: "detached" });

    await card(ids[2]).getByLabel("Note").fill("same device as a fraud");
    await card(ids[2]).getByRole("button", { name: "Deny" }).click();
    await expect.poll(() => status(ids[2])).toBe("denied");
    const denied = await t.prisma.screening.findUniqueOrThrow({ where: { id: ids[2] } });
    expect(denied).toMatchObject({
      reviewedBy: merchant.email,
      reviewNote: "same device as a fraud",
    });

    t.clock.advance(1000);
    await card(ids[0]).getByRole("button", { name: "Label legitimate" }).click();
    await expect
      .poll(() => card(ids[0]).locator("[data-label]").innerText())
      .toBe(`legitimate (${merchant.email})`);
    const labels = await t.prisma.label.findMany({
      where: { subjectId: ids[0] },
      orderBy: { createdAt: "asc" },
    });
    expect(labels.map((l) => [l.label, l.source])).toEqual([
      ["fraud", "api"],
      ["legitimate", "person"],
    ]);
    const link = page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: /Review/ });
    await expect.poll(() => link.innerText()).toMatch(/Review\s*1/);
  });

  it("fits 375 px without sideways scrolling", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${t.baseUrl}/homepage/review`);
    await card(ids[0]).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await screenshot(page, "review-queue-375");
    const always = card(ids[0]).getByLabel("Always allow this user");
    // A checkbox's own size, not stretched by the note field's flex rule (it once was 140 px).
    expect((await always.boundingBox())?.width).toBeLessThan(40);
    await always.check();
    await card(ids[0]).getByRole("button", { name: "Approve" }).click();
    await page.getByText("Nothing to review.").waitFor();
  });

  it("lists the user approved with always allow beside the block lists, and lets them through", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${t.baseUrl}/homepage/block-lists`);
    const allowed = page.getByRole("list", { name: "Allowed values" });
    await allowed.getByText("u-first").waitFor();
    expect(await allowed.innerText()).toContain(`added by ${merchant.email}`);
    const answer = await backend.decide({ type: "request", user_agent: BOT, user_id: "u-first" });
    expect(answer).toMatchObject({
      decision: "allow",
      allowed: { kind: "user_id", value: "u-first" },
    });

    const form = page.getByRole("form", { name: "Add to the allow list" });
    await form.getByLabel("Kind").selectOption("ip_cidr");
    await form.getByLabel("Value").fill("203.0.113.0/33");
    await form.getByRole("button", { name: "Allow" }).click();
    await page.getByText("must be an IP address or a CIDR range").waitFor();
    await form.getByLabel("Value").fill("203.0.113.0/24");
    await form.getByRole("button", { name: "Allow" }).click();
    await allowed.getByText("203.0.113.0/24").waitFor();
    await screenshot(page, "allow-list");
  });

  it("labels a screening from its row on the Screenings page", async () => {
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${ids[1]}"] button`).first().click();
    const detail = page.locator(`#screening-${ids[1]}`);
    await detail.getByRole("button", { name: "Label fraud" }).click();
    await expect
      .poll(() => detail.locator("[data-label]").innerText())
      .toBe(`fraud (${merchant.email})`);
    const stored = await t.prisma.label.findMany({ where: { subjectId: ids[1] } });
    expect(stored).toMatchObject([{ label: "fraud", source: "person", subjectKind: "screening" }]);
  });

  describe("a charge the rules review", () => {
    let charge: Stripe.Charge;
    let screening: string;
    const charges = () =>
      t.prisma.transaction.findUniqueOrThrow({
        where: { accountId_chargeId: { accountId: merchant.accountId, chargeId: charge.id } },
      });

    beforeAll(async () => {
      const stripe = await connectStripe(merchant);
      await turnOn(merchant, "rule_high_risk");
      const put = await merchant.api.json("/api/rule-settings", {
        method: "PUT",
        body: { rule_high_risk: { action: "review" } },
      });
      expect(put.status).toBe(200);
      screening = (await backend.decide({ type: "login", user_agent: BOT, user_id: "u-kind" })).id;
      // The charge comes a second later (charges are timed to the second).
      t.clock.advance(1000);
      charge = buildCharge({
        riskScore: 85,
        riskLevel: "elevated",
        email: "charge-buyer@example.com",
        amount: 4900,
        currency: "usd",
        created: Math.floor(t.clock.now().getTime() / 1000),
      });
      const sent = await deliver(
        t,
        stripe.path,
        buildEvent("charge.succeeded", charge),
        stripe.webhookSecret,
      );
      expect(sent.status).toBe(200);
    });

    const shown = () =>
      page
        .locator("li.rv-card")
        .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-id")));

    it("is queued beside screenings, and the Kind filter tells them apart", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await card(charge.id).waitFor();
      const text = await card(charge.id).innerText();
      expect(text).toContain("charge 49.00 USD");
      expect(text).toContain("charge-buyer@example.com");
      expect(text).toContain("risk score 85");
      expect(await shown()).toEqual([screening, charge.id]);

      const filters = page.getByRole("form", { name: "Filter the queue" });
      await filters.getByLabel("Kind").selectOption("charge");
      await expect.poll(shown).toEqual([charge.id]);
      expect(await filters.getByLabel("Type").isDisabled()).toBe(true);
      await filters.getByLabel("Kind").selectOption("screening");
      await expect.poll(shown).toEqual([screening]);
      await filters.getByLabel("Type").selectOption("login");
      await expect.poll(shown).toEqual([screening]);
      await filters.getByLabel("Kind").selectOption("");
      await filters.getByLabel("Type").selectOption("");
      await expect.poll(shown).toEqual([screening, charge.id]);
      await screenshot(page, "review-queue-charge");

      await card(charge.id).getByLabel("Note").fill("customer called");
      await card(charge.id).getByRole("button", { name: "Approve" }).click();
      await expect.poll(async () => (await charges()).reviewStatus).toBe("approved");
      expect(await charges()).toMatchObject({
        reviewedBy: merchant.email,
        reviewNote: "customer called",
        refunded: false,
      });
      await card(charge.id).waitFor({ state: "detached" });
    });

    it("is labelled from its row on the Dashboard", async () => {
      await page.goto(`${t.baseUrl}/homepage/dashboard`);
      const row = page.locator(`tbody tr[data-charge="${charge.id}"]`);
      await row.waitFor();
      // The toggle adds no text: the cell still reads as the charge id.
      expect((await row.locator("td").first().innerText()).trim()).toBe(charge.id);
      await row.getByRole("button", { name: `Label ${charge.id}` }).click();
      const detail = page.locator(`#charge-${charge.id}`);
      await detail.getByRole("button", { name: "Label fraud" }).click();
      await expect
        .poll(() => detail.locator("[data-label]").innerText())
        .toBe(`fraud (${merchant.email})`);
      const stored = await t.prisma.label.findMany({ where: { subjectId: charge.id } });
      expect(stored).toMatchObject([{ label: "fraud", source: "person", subjectKind: "charge" }]);
      await screenshot(page, "dashboard-label");
    });
  });
});
