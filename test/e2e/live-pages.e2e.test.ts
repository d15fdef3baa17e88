/**
 * The live console pages in real Chromium, on both databases: a screening sent by a
 * merchant's backend appears on the open Screenings page, a screening sent to review on the
 * open Review page, and in the Dashboard's decisions-per-minute chart, each within 2 s and
 * without a reload. When the server ends the stream, the page says it is reconnecting, comes
 * back by itself and keeps updating. The chart fits a 375 px phone. A screenshot of the
 * dashboard after an update goes to test-results/live-update.png.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

const WITHIN_MS = 2_000;
const BOT = "python-requests/2.31";

describe.each(DB_KINDS)("live console pages in Chromium (%s)", (kind) => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let backend: Backend;
  let n = 0;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole(`live-pages-${kind}@example.com`, kind));
    backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_scraping");
  });
  afterAll(() => closeConsole({ t, browser }));

  /** Opens a console page and waits until its live stream is connected. */
  const open = async (path: string, heading: string) => {
    await page.goto(`${t.baseUrl}/homepage/${path}`);
    await page.getByRole("heading", { name: heading, exact: true }).first().waitFor();
    await page.locator('[data-live="live"]').waitFor({ timeout: 5_000 });
    // Set on this document: still there afterwards means the page was never reloaded.
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
  };
  const notReloaded = () =>
    page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

  /** A screening from the merchant's backend: a person's signup (allow), or a bot (review). */
  const screen = (as: "person" | "bot") =>
    backend.decide(
      as === "person"
        ? {
            type: "signup",
            email: `person-${kind}-${++n}@example.com`,
            user_agent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36",
          }
        : { type: "request", user_agent: BOT, user_id: `bot-${kind}-${++n}` },
    );

  /** Waits for `selector` no longer than what is left of 2 s since `sent`. */
  const appearsWithin2s = async (selector: string, sent: number) => {
    await page
      .locator(selector)
      .first()
      .waitFor({ timeout: Math.max(1, WITHIN_MS - (Date.now() - sent)) });
    return Date.now() - sent;
  };

  it("shows a new screening on the open Screenings page within 2 s, without a reload", async () => {
    await open("screenings", "Screenings");
    const sent = Date.now();
    const screening = await screen("person");
    const took = await appearsWithin2s(`tr[data-screening="${screening.id}"]`, sent);
    console.log(`live (${kind}): the screening appeared on the page ${took} ms after it was sent`);
    expect(await notReloaded()).toBe(true);
  });

  it("shows a screening sent to review on the open Review page within 2 s", async () => {
    await open("review", "Review");
    const sent = Date.now();
    const review = await screen("bot");
    expect(review.decision).toBe("review");
    await appearsWithin2s(`#rv-${review.id}`, sent);
    expect(await notReloaded()).toBe(true);
  });

  it("counts a new decision in the Dashboard's chart within 2 s", async () => {
    await open("dashboard", "Transaction Dashboard");
    const chart = page.locator("figure.live-chart");
    await chart.waitFor();
    const before = Number(await chart.getAttribute("data-total"));
    const sent = Date.now();
    await screen("person");
    await appearsWithin2s(`figure.live-chart[data-total="${before + 1}"]`, sent);
    const desc = await page.locator("#live-chart-desc").textContent();
    expect(desc).toContain(`${before + 1} decisions in the last hour`);
    expect(await notReloaded()).toBe(true);
    if (kind === "embedded") await screenshot(page, "live-update");
  });

  it("reconnects by itself when the server ends the stream, and keeps updating", async () => {
    await open("screenings", "Screenings");
    expect(t.app.services.live.streamCount()).toBe(1);
    t.app.services.live.endAll();
    await page.locator('[data-live="reconnecting"]').waitFor({ timeout: 2_000 });
    expect(await page.getByRole("status").filter({ hasText: "Reconnecting…" }).count()).toBe(1);
    // The first retry comes after about a second.
    await page.locator('[data-live="live"]').waitFor({ timeout: 5_000 });
    expect(t.app.services.live.streamCount()).toBe(1);
    const sent = Date.now();
    const screening = await screen("person");
    await appearsWithin2s(`tr[data-screening="${screening.id}"]`, sent);
    expect(await notReloaded()).toBe(true);
  });

  it("fits the chart on a 375 px phone without sideways scrolling", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await open("dashboard", "Transaction Dashboard");
      const box = await page.locator("figure.live-chart svg").boundingBox();
      expect(box?.width).toBeGreaterThan(200);
      expect(box?.width).toBeLessThanOrEqual(375);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
      if (kind === "embedded") await screenshot(page, "live-update-phone");
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
