/**
 * The Alerts page in real Chromium against the real app (issue 45): a new account lists its
 * four default alerts in words; a Slack URL the server refuses shows its field error; an
 * alert on one rule's hits added in the form, with a Slack URL pointing at a local receiver,
 * fires on a spike of screenings sent over the API against the hits of the days before: the
 * receiver gets the message, the owner an email, and the page the event with its chart and
 * each channel's answer. An edit that leaves the Slack URL blank keeps it (a test reaches it),
 * a viewer sees it all with nothing to change, and the page fits a 375 px phone. The page's
 * screenshot goes to test-results/, or to docs/screenshots/alerts.png with
 * UPDATE_DOC_SCREENSHOTS=1.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, launchBrowser, signInAs, type TestBrowser } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { pastRightEdge, scrollingSideways } from "../helpers/overflow.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { startWebhookReceiver } from "../helpers/webhook-receiver.ts";

const SCREENSHOTS = process.env.UPDATE_DOC_SCREENSHOTS
  ? join(process.cwd(), "docs/screenshots")
  : ARTIFACTS_DIR;
const BOT = "python-requests/2.31";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };
const DEFAULTS = [
  "Blocks far above usual",
  "Flagged signups from one network far above usual",
  "Review queue waiting over a day",
  "Webhook endpoint failing for an hour",
];
const SPIKE_ALERT = "Scraping far above usual";

describe("alerts in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: TestBrowser;
  let page: Page;
  let slack: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    slack = await startWebhookReceiver();
    // A local receiver is a private address; the server measures alerts when the test says.
    t = await startTestApp("embedded", {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", ALERTS_EVERY_SECONDS: "3600" },
    });
    merchant = await signedInMerchant(t, "alerts-e2e@example.com");
    browser = await launchBrowser(LAPTOP);
    await signInAs(browser.context, t.baseUrl, merchant.token);
    page = await browser.newPage();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await slack?.close();
  });

  const open = async (on: Page = page) => {
    await on.goto(`${t.baseUrl}/homepage/alerts`);
    await on.getByRole("list", { name: "Alerts" }).waitFor();
    await on.getByRole("heading", { name: "History" }).waitFor();
  };
  const alertRow = (name: string, on: Page = page) =>
    on
      .getByRole("list", { name: "Alerts" })
      .locator("li[data-alert]")
      .filter({ has: on.getByText(name, { exact: true }) });
  const addForm = () => page.getByRole("form", { name: "Add an alert" });

  it("lists the four alerts a new account starts with, in words, all on", async () => {
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Alerts" })
      .click();
    await page.waitForURL(`${t.baseUrl}/homepage/alerts`);
    const list = page.getByRole("list", { name: "Alerts" });
    await expect.poll(() => list.locator("li[data-alert]").count()).toBe(4);
    expect(await list.locator(".toggle-label").allInnerTexts()).toEqual(DEFAULTS);
    for (const name of DEFAULTS) {
      expect(await page.getByRole("switch", { name }).isChecked(), name).toBe(true);
    }
    expect(await alertRow("Blocks far above usual").innerText()).toContain(
      "Watches blocks: fires a spike against its baseline over 15 min, quiet for 1 h after firing.",
    );
    expect(
      await alertRow("Flagged signups from one network far above usual").innerText(),
    ).toContain(
      "Watches signups blocked or sent to review from one network: fires a spike against its baseline over 15 min",
    );
    expect(await alertRow("Review queue waiting over a day").innerText()).toContain(
      "Watches how long the oldest open review has waited: fires at 24 hours or more, quiet for 24 h after firing.",
    );
    expect(await alertRow("Webhook endpoint failing for an hour").innerText()).toContain(
      "fires at 60 minutes or more",
    );
    expect(await alertRow("Blocks far above usual").innerText()).toContain("Email, webhook event");
    expect(await page.locator("[data-firing=true]").count()).toBe(0);
    await page.getByText("No alert has fired yet, and no test was sent.").waitFor();
  });

  it("shows under the Slack URL why the server refuses it, and adds nothing", async () => {
    await open();
    const form = addForm();
    await form.getByLabel("Name").fill("Refused Slack URL");
    await form.getByLabel("Watch").selectOption("rule_hits");
    await form.locator('select[name="alert_rule"]').selectOption("rule_scraping");
    await form.getByLabel("Fires on").selectOption("threshold");
    await form.getByLabel("Threshold (hits)").fill("3");
    // An absolute URL (the form's own schema check passes it) the server may not post to.
    await form
      .getByRole("textbox", { name: "Slack URL" })
      .fill("ftp://hooks.example.com/services/T0/B0/X");
    const answer = page.waitForResponse((r) => r.url().includes("/trpc/alerts.create"));
    await form.getByRole("button", { name: "Add alert" }).click();
    expect((await answer).status()).toBe(400);
    await form.getByText("Slack URL must be an http or https URL").waitFor();
    expect(await t.prisma.alertRule.count({ where: { accountId: merchant.accountId } })).toBe(4);
  });

  it("fires an alert on a spike of one rule's hits: Slack, email, and the event with its chart", async () => {
    // The rule reports without acting, so no review or block sets off a default alert too.
    await turnOn(merchant, "rule_scraping");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_scraping: { mode: "monitor" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const backend = await backendOf(t, merchant);
    const scrape = async (n: number, id: string) => {
      const answer = await backend.decide({ type: "request", user_agent: BOT, user_id: id });
      expect(answer.decision, `${id} ${n}`).toBe("allow");
      expect(answer.monitored.map((m) => m.rule)).toContain("rule_scraping");
    };
    // Ten minutes into an hour, so the spike below stays in one hour; its baseline is two hits
    // in the same hour yesterday and the day before.
    const at = Math.ceil(t.clock.now().getTime() / HOUR) * HOUR + 10 * MINUTE;
    for (const daysAgo of [2, 1]) {
      t.clock.set(new Date(at - daysAgo * DAY));
      for (const n of [1, 2]) await scrape(n, `baseline-${daysAgo}`);
    }
    t.clock.set(new Date(at));

    await open();
    const form = addForm();
    await form.getByLabel("Name").fill(SPIKE_ALERT);
    await form.getByLabel("Watch").selectOption("rule_hits");
    await form.locator('select[name="alert_rule"]').selectOption("rule_scraping");
    await form.getByLabel("Fires on").selectOption("spike");
    expect(
      await form.locator('input[name="alert_threshold"]').count(),
      "no threshold for a spike",
    ).toBe(0);
    await form.getByLabel("Webhook event").uncheck();
    await form.getByRole("textbox", { name: "Slack URL" }).fill(slack.url);
    await form.getByRole("button", { name: "Add alert" }).click();
    await form.getByText(`Alert “${SPIKE_ALERT}” added.`).waitFor();
    const row = alertRow(SPIKE_ALERT);
    const hint = `127.0.0.1:${new URL(slack.url).port}/…rden`;
    expect(await row.innerText()).toContain(
      "Watches hits of “Scraping and throttling”: fires a spike against its baseline over 15 min",
    );
    expect(await row.innerText()).toContain(`Email, Slack (${hint})`);

    // Twelve hits in six minutes, against two an hour.
    for (let n = 1; n <= 12; n++) {
      await scrape(n, `spike-${n}`);
      t.clock.advance(30_000);
    }
    await t.app.services.alerts.evaluate(merchant.accountId);

    await expect.poll(() => slack.received.length).toBe(1);
    const [posted] = slack.received;
    expect(posted?.headers["content-type"]).toBe("application/json");
    const message = JSON.parse(posted?.body ?? "{}") as { text?: string };
    expect(message.text).toContain(`Warden alert: ${SPIKE_ALERT}`);
    expect(message.text).toContain(
      '12 hits of "Scraping and throttling" in the last 15 min; usual for this hour 2',
    );
    const mail = await t.smtp.waitFor(merchant.email, `Warden alert: ${SPIKE_ALERT}`);
    expect(mail.text).toContain('12 hits of "Scraping and throttling" in the last 15 min');
    // The email's link opens the Alerts page.
    expect(mail.text).toContain(`${t.baseUrl}/homepage/alerts`);

    await page.reload();
    await row.waitFor();
    await row.getByText("Firing", { exact: true }).waitFor();
    expect(await row.getAttribute("data-firing")).toBe("true");
    const event = page
      .getByRole("list", { name: "Alert events" })
      .locator('li[data-kind="fired"]')
      .filter({ hasText: SPIKE_ALERT });
    await event.waitFor();
    expect(await event.locator(".al-kind").innerText()).toBe("Fired");
    expect(await event.innerText()).toContain(
      '12 hits of "Scraping and throttling" in the last 15 min; usual for this hour 2.',
    );
    // Its chart: 24 buckets of 5 minutes, the value line and the usual one (2 an hour), named.
    const chart = event.getByRole("img", { name: `${SPIKE_ALERT}, per 5 minutes` });
    expect(await chart.getAttribute("aria-labelledby")).toMatch(/-desc$/);
    expect(await event.locator("figure.al-chart").getAttribute("data-points")).toBe("24");
    expect(await chart.locator("desc").textContent()).toMatch(
      /per 5 minutes: highest \d+ at .+, last \d+; usual 0\.2\.$/,
    );
    expect(await chart.locator("path.al-value").getAttribute("d")).toMatch(
      /^M0,[\d.]+(L[\d.]+,[\d.]+){23}$/,
    );
    expect(await chart.locator("path.al-usual").getAttribute("d")).toMatch(
      /^M0,[\d.]+(L[\d.]+,[\d.]+){23}$/,
    );
    expect(await event.locator('[data-channel="Slack"] dd').innerText()).toBe("sent (HTTP 200)");
    expect(await event.locator('[data-channel="Email"] dd').innerText()).toBe("queued to 1");
    expect(await event.locator('[data-channel="Webhook"]').count()).toBe(0);

    await page.mouse.move(0, 0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: LAPTOP.width, height: Math.min(height, 2400) });
    await page.screenshot({ path: join(SCREENSHOTS, "alerts.png") });
    await page.setViewportSize(LAPTOP);
  });

  it("keeps the Slack URL when an edit leaves it blank, and a test reaches it", async () => {
    await open();
    const row = alertRow(SPIKE_ALERT);
    await row.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: `Edit “${SPIKE_ALERT}”` });
    const hint = `127.0.0.1:${new URL(slack.url).port}/…rden`;
    expect(await form.getByRole("textbox", { name: "Slack URL" }).inputValue()).toBe("");
    await form.getByText(`Saved: ${hint}. Leave blank to keep it.`).waitFor();
    await form.getByLabel("Window (minutes)").fill("30");
    await form.getByRole("button", { name: "Save alert" }).click();
    await addForm().waitFor();
    await expect.poll(() => row.innerText()).toContain("over 30 min");
    expect(await row.innerText()).toContain(`Slack (${hint})`);
    // An edit starts the alert afresh: no longer firing.
    expect(await row.getAttribute("data-firing")).toBe("false");

    await row.getByRole("button", { name: "Send a test" }).click();
    await row.getByText("Test sent: see its answers under History.").waitFor();
    await expect.poll(() => slack.received.length).toBe(2);
    const test = JSON.parse(slack.received[1]?.body ?? "{}") as { text?: string };
    expect(test.text).toContain(`Test of the alert: ${SPIKE_ALERT}`);
    const event = page.getByRole("list", { name: "Alert events" }).locator('li[data-kind="test"]');
    await event.waitFor();
    expect(await event.locator(".al-kind").innerText()).toBe("Test");
    expect(await event.locator('[data-channel="Slack"] dd').innerText()).toBe("sent (HTTP 200)");
  });

  it("shows a viewer the alerts and their history, with nothing to change", async () => {
    const viewer = await signedInMerchant(t, "viewer-alerts-e2e@example.com");
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: viewer.email } });
    await t.prisma.membership.create({
      data: { accountId: merchant.accountId, userId: user.id, role: "viewer" },
    });
    const { token } = await t.app.services.sessions.create(user.id, merchant.accountId);
    const own = await launchBrowser(LAPTOP);
    try {
      await signInAs(own.context, t.baseUrl, token);
      const seen = await own.newPage();
      await open(seen);
      await seen.getByText("Your role (Viewer) cannot change the configuration.").waitFor();
      const list = seen.getByRole("list", { name: "Alerts" });
      await expect.poll(() => list.locator("li[data-alert]").count()).toBe(5);
      expect(await alertRow(SPIKE_ALERT, seen).locator(".badge").innerText()).toBe("On");
      const main = seen.locator("main");
      expect(await main.getByRole("switch").count()).toBe(0);
      expect(await main.getByRole("button").count()).toBe(0);
      expect(await main.getByRole("form").count()).toBe(0);
      const events = seen.getByRole("list", { name: "Alert events" });
      await events.locator('li[data-kind="fired"]').getByRole("img").waitFor();
      expect(await events.locator("li[data-alert-event]").count()).toBe(2);
    } finally {
      await own.close();
    }
  });

  it("fits a 375 px phone, the edit form open, without sideways scrolling", async () => {
    await page.setViewportSize(PHONE);
    await open();
    await alertRow(SPIKE_ALERT).getByRole("button", { name: "Edit" }).click();
    await page.getByRole("form", { name: `Edit “${SPIKE_ALERT}”` }).waitFor();
    await page.getByRole("list", { name: "Alert events" }).getByRole("img").first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, "page scroll width").toBeLessThanOrEqual(PHONE.width);
    expect(await scrollingSideways(page), "boxes that scroll sideways").toEqual([]);
    expect(await pastRightEdge(page, PHONE.width), "past the right edge").toEqual([]);
    const chart = await page.locator("figure.al-chart svg").first().boundingBox();
    expect(chart?.width, "a chart as wide as the card").toBeGreaterThan(250);
    await page.screenshot({ path: join(ARTIFACTS_DIR, "alerts-375.png"), fullPage: true });
    await page.setViewportSize(LAPTOP);
  });

  it("removes an alert after a confirmation, and keeps its events", async () => {
    await open();
    const row = alertRow(SPIKE_ALERT);
    await row.getByRole("button", { name: "Remove" }).click();
    await row.getByText(`Remove “${SPIKE_ALERT}”? Its past events stay.`).waitFor();
    await row.getByRole("button", { name: "Yes, remove" }).click();
    await row.waitFor({ state: "detached" });
    expect(await page.getByRole("list", { name: "Alerts" }).locator("li[data-alert]").count()).toBe(
      4,
    );
    expect(await t.prisma.alertRule.count({ where: { accountId: merchant.accountId } })).toBe(4);
    const events = page.getByRole("list", { name: "Alert events" }).locator("li[data-alert-event]");
    await expect.poll(() => events.filter({ hasText: SPIKE_ALERT }).count()).toBe(2);
  });
});
