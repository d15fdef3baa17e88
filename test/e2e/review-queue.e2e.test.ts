/**
 * The review queue in real Chromium against the real app: the sidebar's open count, items
 * oldest first with the identity they share, approve from the keyboard, deny with a note,
 * a label from the queue, and the page at 375 px; a charge the rules review (delivered as a
 * signed Stripe webhook) in the queue and its Kind filter, and a label from a dashboard row.
 * A settle waits out its undo window (UNDO_MS) before the server hears of it: Undo (or u)
 * within it sends nothing, and the next settle, leaving the page or closing the tab send it
 * at once; the server's state is read back through the merchant's API.
 */
import type { Page } from "playwright-core";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNDO_MS } from "../../client/src/features/review/use-pending-settle.ts";
import type { ScreeningDetail } from "../../shared/schemas/review.ts";
import { buildCharge, buildEvent } from "../fixtures/stripe.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { connectStripe, deliver } from "../helpers/stripe-webhooks.ts";
import type { TestApp } from "../helpers/test-app.ts";

const BOT = "python-requests/2.31";
/** How long a settle may take to reach the database once its undo window has passed. */
const SETTLED = { timeout: UNDO_MS + 5_000 };

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
  /** The status line of the queue (the toast with Undo). */
  const toast = () => page.locator(".rv-toast[role=status]");

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
    await card(ids[1]).waitFor({ state: "detached", timeout: 1000 });
    expect(await toast().innerText()).toContain("Approved request from user u-second.");
    await expect.poll(() => status(ids[1]), SETTLED).toBe("approved");

    // The buttons wait out the same window.
    await card(ids[2]).getByLabel("Note").fill("same device as a fraud");
    await card(ids[2]).getByRole("button", { name: "Deny" }).click();
    await card(ids[2]).waitFor({ state: "detached", timeout: 1000 });
    expect(await toast().innerText()).toContain("Denied request from user u-third.");
    await expect.poll(() => status(ids[2]), SETTLED).toBe("denied");
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
    // The status line fits the screen above the bottom tab bar, its Undo within reach.
    const undo = await toast().getByRole("button", { name: "Undo" }).boundingBox();
    const tabs = await page.getByRole("navigation", { name: "Console" }).boundingBox();
    expect(undo && tabs && undo.y + undo.height <= tabs.y, JSON.stringify({ undo, tabs })).toBe(
      true,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await screenshot(page, "review-undo-375");
    await expect.poll(() => status(ids[0]), SETTLED).toBe("approved");
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
      await expect.poll(async () => (await charges()).reviewStatus, SETTLED).toBe("approved");
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

  describe("undo", () => {
    const undoIds: string[] = [];
    /** The review state the merchant's API reports for a screening. */
    const apiStatus = async (id: string | undefined) => {
      const res = await backend.client.json<ScreeningDetail>(`/api/v1/screenings/${id}`);
      expect(res.status).toBe(200);
      return res.body.review?.status;
    };
    /** Selects an item by clicking its title (keys act on the selected item). */
    const select = async (id: string | undefined) => {
      await card(id).locator(".rv-head strong").click();
      await expect.poll(() => card(id).getAttribute("aria-current")).toBe("true");
    };

    beforeAll(async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      for (const user of ["u-undo-1", "u-undo-2", "u-undo-3", "u-undo-4", "u-undo-5"]) {
        t.clock.advance(1000);
        const answer = await backend.decide({ type: "request", user_agent: BOT, user_id: user });
        expect(answer.decision).toBe("review");
        undoIds.push(answer.id);
      }
    });

    it("d shows what it did with an Undo; Undo puts the item back and nothing is sent", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await select(undoIds[0]);
      await page.keyboard.press("d");
      // The item leaves the list at once, and the status line says what happened.
      await card(undoIds[0]).waitFor({ state: "detached", timeout: 1000 });
      const line = toast();
      expect(await line.innerText()).toMatch(/^Denied request from user u-undo-1\.\s*Undo$/);
      expect(await apiStatus(undoIds[0])).toBe("open");
      await screenshot(page, "review-undo");

      await line.getByRole("button", { name: "Undo" }).click();
      await card(undoIds[0]).waitFor();
      expect(await card(undoIds[0]).getAttribute("aria-current")).toBe("true");
      expect(await line.innerText()).toBe(
        "Undone: request from user u-undo-1 is back in the queue.",
      );
      // Well past the window, the server still has no decision, and the item is still listed.
      await page.waitForTimeout(UNDO_MS + 1500);
      expect(await apiStatus(undoIds[0])).toBe("open");
      await card(undoIds[0]).waitFor({ timeout: 1000 });
    });

    it("u takes a denial back; one let stand is sent when the window has passed", async () => {
      await select(undoIds[0]);
      await page.keyboard.press("d");
      await card(undoIds[0]).waitFor({ state: "detached", timeout: 1000 });
      await page.keyboard.press("u");
      await card(undoIds[0]).waitFor({ timeout: 1000 });
      expect(await toast().innerText()).toContain("Undone:");

      await page.keyboard.press("d");
      const pressed = Date.now();
      await card(undoIds[0]).waitFor({ state: "detached", timeout: 1000 });
      expect(await apiStatus(undoIds[0])).toBe("open");
      await expect.poll(() => apiStatus(undoIds[0]), SETTLED).toBe("denied");
      expect(Date.now() - pressed).toBeGreaterThanOrEqual(UNDO_MS - 500);
      // The Undo is gone once it is sent, and the line clears a while later.
      await toast().getByRole("button", { name: "Undo" }).waitFor({ state: "detached" });
      await expect.poll(() => toast().innerText(), SETTLED).toBe("");
    });

    it("the next settle and leaving the page send the pending one at once", async () => {
      await select(undoIds[1]);
      await page.keyboard.press("d");
      await card(undoIds[1]).waitFor({ state: "detached", timeout: 1000 });
      // The selection stays in place, on the next item.
      await expect.poll(() => card(undoIds[2]).getAttribute("aria-current")).toBe("true");
      const next = Date.now();
      await page.keyboard.press("a");
      await expect.poll(() => apiStatus(undoIds[1]), { timeout: UNDO_MS - 1000 }).toBe("denied");
      expect(Date.now() - next).toBeLessThan(UNDO_MS);
      expect(await apiStatus(undoIds[2])).toBe("open");

      const left = Date.now();
      await page
        .getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Screenings" })
        .click();
      await page.getByRole("heading", { name: "Screenings" }).waitFor();
      await expect.poll(() => apiStatus(undoIds[2]), { timeout: UNDO_MS - 1000 }).toBe("approved");
      expect(Date.now() - left).toBeLessThan(UNDO_MS);
    });

    it("closing the tab sends the pending one at once", async () => {
      const other = await browser.newPage();
      await other.goto(`${t.baseUrl}/homepage/review`);
      await other.locator(`li.rv-card[data-id="${undoIds[3]}"] .rv-head strong`).click();
      await other.keyboard.press("d");
      await other.locator(".rv-toast[role=status]").getByRole("button", { name: "Undo" }).waitFor();
      const closed = Date.now();
      await other.close({ runBeforeUnload: true });
      await expect.poll(() => apiStatus(undoIds[3]), { timeout: UNDO_MS - 1000 }).toBe("denied");
      expect(Date.now() - closed).toBeLessThan(UNDO_MS);
    });

    it("says so when the server refuses a settle it held, and drops the item settled elsewhere", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await select(undoIds[4]);
      await page.keyboard.press("a");
      await card(undoIds[4]).waitFor({ state: "detached", timeout: 1000 });
      // The merchant's backend denies it within the window.
      const denied = await backend.client.json(`/api/v1/screenings/${undoIds[4]}/decision`, {
        body: { decision: "deny", note: "from the backend" },
      });
      expect(denied.status).toBe(200);
      const alert = page.getByRole("alert");
      await alert.waitFor(SETTLED);
      expect(await alert.innerText()).toMatch(
        new RegExp(`^Screening ${undoIds[4]} was already denied by `),
      );
      await page.waitForTimeout(500);
      expect(await card(undoIds[4]).count()).toBe(0);
      expect(await apiStatus(undoIds[4])).toBe("denied");
    });
  });

  describe("bulk labels and exact counts", () => {
    const bulkIds: string[] = [];
    const labelsOf = (ids: string[]) =>
      t.prisma.label.findMany({ where: { subjectId: { in: ids } }, orderBy: { subjectId: "asc" } });
    const bar = () => page.getByRole("group", { name: "Label selected" });

    beforeAll(async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      for (const user of ["u-bulk-1", "u-bulk-2", "u-bulk-3"]) {
        t.clock.advance(1000);
        const answer = await backend.decide({ type: "request", user_agent: BOT, user_id: user });
        expect(answer.decision).toBe("review");
        bulkIds.push(answer.id);
      }
    });

    it("ticks rows on Screenings, labels them fraud as one batch, and one Undo takes it back", async () => {
      await page.goto(`${t.baseUrl}/homepage/screenings`);
      const picked = bulkIds.slice(0, 2);
      for (const id of picked) await page.locator(`input[data-select="${id}"]`).check();
      expect(await bar().locator("[data-selected-count]").innerText()).toBe("2 selected");
      await bar().getByRole("button", { name: "Label fraud" }).click();
      const status = bar().locator("[data-bulk-status]");
      await expect.poll(() => status.innerText()).toMatch(/^Labelled 2 items fraud\.\s*Undo$/);
      const stored = await labelsOf(picked);
      expect(stored.map((l) => [l.label, l.source])).toEqual([
        ["fraud", "person"],
        ["fraud", "person"],
      ]);
      expect(new Set(stored.map((l) => l.batchId)).size).toBe(1);
      expect(stored[0]?.batchId).toBeTruthy();
      // The ticks clear once labelled.
      expect(await bar().locator("[data-selected-count]").innerText()).toBe("0 selected");
      await screenshot(page, "screenings-bulk-labelled");

      await status.getByRole("button", { name: "Undo" }).click();
      await expect
        .poll(() => status.innerText())
        .toBe("Undone: 2 labels removed; any earlier label stands again.");
      expect(await labelsOf(picked)).toEqual([]);
    });

    it("selects every item shown on Review, labels them legitimate, and undoes the batch", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await card(bulkIds[2]).waitFor();
      const shown = await page.locator("li.rv-card").count();
      await bar().getByLabel(`Select all ${shown} shown`).check();
      expect(await bar().locator("[data-selected-count]").innerText()).toBe(`${shown} selected`);
      await bar().getByRole("button", { name: "Label legitimate" }).click();
      const status = bar().locator("[data-bulk-status]");
      await expect
        .poll(() => status.innerText())
        .toMatch(new RegExp(`^Labelled ${shown} items? legitimate\\.\\s*Undo$`));
      expect((await labelsOf(bulkIds)).map((l) => l.label)).toEqual([
        "legitimate",
        "legitimate",
        "legitimate",
      ]);
      // Each card shows its new label.
      await expect
        .poll(() => card(bulkIds[0]).locator("[data-label]").innerText())
        .toBe(`legitimate (${merchant.email})`);
      await status.getByRole("button", { name: "Undo" }).click();
      await expect.poll(() => status.innerText()).toMatch(/^Undone: /);
      expect(await labelsOf(bulkIds)).toEqual([]);
      await expect.poll(() => card(bulkIds[0]).locator("[data-label]").innerText()).toBe("none");
    });

    it("says an approval that never reached the server, and keeps the item in the queue", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await card(bulkIds[0]).waitFor();
      // The server is out of reach for the settle: the request fails as it would if it were down.
      await page.route("**/trpc/review.settle**", (route) => route.abort("connectionrefused"));
      try {
        await card(bulkIds[0]).getByRole("button", { name: "Approve" }).click();
        await card(bulkIds[0]).waitFor({ state: "detached", timeout: 1000 });
        const alert = page.getByRole("alert");
        await alert.waitFor(SETTLED);
        expect(await alert.innerText()).toMatch(
          /^Not saved: the approval of request from user u-bulk-1 did not reach Warden \(.+\)\. It is back in the queue; settle it again\.$/,
        );
        await card(bulkIds[0]).waitFor({ timeout: 2000 });
        // Never settled: an open screening has no review status yet.
        expect(await status(bulkIds[0])).toBeNull();
      } finally {
        await page.unroute("**/trpc/review.settle**");
      }
    });

    it("asks about and reports the exact number Deny all settles", async () => {
      await page.goto(`${t.baseUrl}/homepage/review`);
      await card(bulkIds[0]).waitFor();
      const open = await t.prisma.screening.count({
        where: { accountId: merchant.accountId, decision: "review", reviewStatus: null },
      });
      const charges = await t.prisma.transaction.count({
        where: { accountId: merchant.accountId, reviewStatus: "open" },
      });
      const total = open + charges;
      expect(total).toBeGreaterThanOrEqual(3);
      const asked = new Promise<string>((resolve) =>
        page.once("dialog", (dialog) => {
          resolve(dialog.message());
          void dialog.accept();
        }),
      );
      await page.getByRole("button", { name: "Deny all" }).click();
      expect(await asked).toBe(`Deny all ${total} matching items?`);
      await page.getByText("Nothing to review.").waitFor();
      expect(await page.locator("[data-bulk-done]").innerText()).toBe(`Denied ${total} items.`);
      for (const id of bulkIds) expect(await status(id)).toBe("denied");
    });

    it("shows one count of labelled screenings on Test on history and on Risk score", async () => {
      // Labels, review decisions (the denials above) and Stripe's word, the newest on each.
      const counts = await merchant.browser.query<{ fraud: number; legitimate: number }>(
        "labels.counts",
      );
      expect(counts.ok).toBe(true);
      if (!counts.ok) return;
      expect(counts.data.fraud).toBeGreaterThanOrEqual(bulkIds.length);
      const expected = `Labelled screenings: ${counts.data.fraud} fraud and ${counts.data.legitimate} legitimate`;
      const shown: string[] = [];
      for (const path of ["rules", "risk-score"]) {
        await page.goto(`${t.baseUrl}/homepage/${path}`);
        const line = page.locator("[data-label-count]");
        await line.waitFor();
        shown.push(await line.innerText());
      }
      expect(shown[0]).toContain(expected);
      expect(shown[1]).toBe(shown[0]);
    });
  });
});
