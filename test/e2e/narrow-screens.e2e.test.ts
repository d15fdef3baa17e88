/**
 * Every console page on a 375 px phone in real Chromium, for a member of two accounts (the
 * header carries the account switch): nothing scrolls sideways, Log off and the bottom bar stay
 * in view, lists are cards with the decision first, emails wrap at their separators, the bottom
 * bar's tabs stay apart (four tabs and "More"), and no page load logs a warning or an error.
 * Also: an unknown console path says "Page not found", and the block lists are named one way.
 * Screenshots at 1280 and 375 px of four pages go to test-results/, or to docs/screenshots/
 * with UPDATE_DOC_SCREENSHOTS=1; the Team page's always to test-results/47-team-*.png.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ConsoleMessage, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_DIR } from "../helpers/browser.ts";
import {
  CONSOLE_PAGES,
  type ConsoleBrowser,
  closeConsole,
  openConsole,
} from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { pastRightEdge, scrollingSideways } from "../helpers/overflow.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };
const PAGES = [...CONSOLE_PAGES, "risk-score", "alerts", "team", "audit", "data-requests"];
const SHOWN_IN_DOCS = ["dashboard", "rules", "screenings", "review"];
/** test-results/ on every run; docs/screenshots/ (committed) with UPDATE_DOC_SCREENSHOTS=1. */
const SCREENSHOTS = process.env.UPDATE_DOC_SCREENSHOTS
  ? join(process.cwd(), "docs/screenshots")
  : ARTIFACTS_DIR;
/** Long enough to wrap on a phone, with separators to wrap at. */
const LONG_EMAIL = "first.middle.lastname-with-a-long-tail@customer-accounts.example.co.uk";
const BOT = "python-requests/2.31";
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("console on a 375 px phone in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("narrow-screens@example.com"));
    // A member of a second account too, as every invitee is: the header shows the switch.
    const other = await signedInMerchant(t, "another-owner@example.com");
    const me = await t.prisma.user.findUniqueOrThrow({ where: { email: merchant.email } });
    await t.prisma.membership.create({
      data: { accountId: other.accountId, userId: me.id, role: "analyst" },
    });
    const now = Math.floor(Date.now() / 1000);
    const charge = (chargeId: string, created: number, fields: Record<string, unknown> = {}) => ({
      accountId: merchant.accountId,
      chargeId,
      hasCharge: true,
      amount: 4200,
      currency: "usd",
      email: "buyer@example.com",
      created: now - created,
      status: "succeeded",
      captured: true,
      outcome: "succeeded",
      riskLevel: "normal",
      riskScore: 12,
      ...fields,
    });
    await t.prisma.transaction.createMany({
      data: [
        charge("ch_3NarrowRuleBlocked0001", 60, {
          email: LONG_EMAIL,
          outcome: "blocked",
          riskLevel: "elevated",
          riskScore: 82,
          blockedBy: "custom_rule",
          ruleReason: "risk score 82 above threshold 70",
          ruleKeys: ["rule_high_risk"],
          actionKind: "refund",
          actionStatus: "done",
        }),
        charge("ch_3NarrowRadarBlocked002", 120, {
          outcome: "blocked",
          outcomeReason: "highest_risk_level",
          riskLevel: "highest",
          riskScore: 91,
          blockedBy: "stripe",
        }),
        charge("ch_3NarrowSucceeded000003", 180),
      ],
    });

    const backend = await backendOf(t, merchant);
    await turnOn(merchant, "rule_email", "rule_scraping");
    const blocklist = await merchant.api.json("/api/blocklist", {
      method: "PUT",
      body: { countries: [], email_providers: ["customer-accounts.example.co.uk"] },
    });
    expect(blocklist.status).toBe(200);
    // One card for all three, so the screening and the review opened below list linked accounts.
    // A browser's user agent for the first: without one rule_scraping reviews it, and two
    // cards screened at the same instant came in either order, the one whose linked accounts
    // are read only when selected (a request) sometimes second and unselected.
    const card = "fp_narrow_shared";
    const allowed = await backend.decide({
      type: "signup",
      user_agent: BROWSER,
      email: "allowed@example.com",
      ip: "203.0.113.7",
      card_fingerprint: card,
    });
    expect(allowed.decision).toBe("allow");
    const review = await backend.decide({
      type: "request",
      user_agent: BOT,
      user_id: "u-review",
      email: "reviewed.person@example.com",
      ip: "2001:db8:85a3::8a2e:370:7334",
      card_fingerprint: card,
    });
    expect(review.decision).toBe("review");
    t.clock.advance(60_000);
    const blocked = await backend.decide({
      type: "signup",
      user_id: "user-with-a-long-id-0001",
      email: LONG_EMAIL,
      ip: "198.51.100.23",
      card_fingerprint: card,
    });
    expect(blocked.decision).toBe("block");
    await mkdir(SCREENSHOTS, { recursive: true });
    await mkdir(ARTIFACTS_DIR, { recursive: true });
  });
  afterAll(() => closeConsole({ t, browser }));

  const open = async (path: string) => {
    await page.goto(`${t.baseUrl}/homepage/${path}`);
    await page.locator("main h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    if (path === "dashboard") await page.locator("tr[data-charge]").first().waitFor();
    if (path === "screenings") await page.locator("tr[data-screening]").first().waitFor();
    if (path === "review") await page.locator("li.rv-card").first().waitFor();
    if (path === "audit") await page.locator("li[data-audit-event]").first().waitFor();
  };
  const nav = () => page.getByRole("navigation", { name: "Console" });
  /** The bottom bar's tabs as drawn: each visible link and the "More" button, left to right. */
  const tabs = () =>
    nav()
      .locator(":scope > a, :scope > details > summary")
      .evaluateAll((elements) =>
        elements
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => {
            const box = el.getBoundingClientRect();
            const label = el.querySelector(".nav-label")?.getBoundingClientRect();
            return {
              text: (el as HTMLElement).innerText.replace(/\s+/g, " ").trim(),
              left: box.left,
              right: box.right,
              top: box.top,
              height: box.height,
              clipped: el.scrollWidth > el.clientWidth,
              labelLeft: label?.left ?? 0,
              labelRight: label?.right ?? 0,
            };
          }),
      );
  /** Where each line of a cell's text starts (character offsets), as Chromium laid it out. */
  const lineStarts = (cell: Locator) =>
    cell.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const starts: number[] = [];
      let text = "";
      let lastTop: number | null = null;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent ?? "";
        for (let i = 0; i < value.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect || rect.width === 0) continue;
          if (lastTop !== null && rect.top > lastTop + 2) starts.push(text.length + i);
          lastTop = rect.top;
        }
        text += value;
      }
      return { text, starts };
    });

  it("fits every console page without sideways scrolling, inside any box as well", async () => {
    await page.setViewportSize(PHONE);
    // A page load logs nothing: no react-router warning, no failed request.
    const logged: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === "warning" || message.type() === "error") {
        logged.push(`${message.type()}: ${message.text()}`);
      }
    };
    page.on("console", onConsole);
    for (const path of PAGES) {
      await open(path);
      // The header with its account switch fits too: Log off in view, nothing past the edge.
      await page.getByRole("combobox", { name: "Account" }).waitFor();
      const logOff = await page.getByRole("button", { name: "Log off" }).boundingBox();
      if (!logOff) throw new Error(`${path}: Log off not drawn`);
      expect(logOff.x, `${path}: Log off left`).toBeGreaterThanOrEqual(0);
      expect(logOff.x + logOff.width, `${path}: Log off right`).toBeLessThanOrEqual(PHONE.width);
      expect(await pastRightEdge(page, PHONE.width, "header *"), `${path}: header`).toEqual([]);
      const bar = await nav().boundingBox();
      if (!bar) throw new Error(`${path}: bottom bar not drawn`);
      expect(bar.y + bar.height, `${path}: bottom bar in view`).toBeLessThanOrEqual(PHONE.height);
      expect(bar.x + bar.width, `${path}: bottom bar width`).toBeLessThanOrEqual(PHONE.width);
      // An open card too: its detail row (reasons, linked accounts, label buttons) must fit
      // as well; on Review, a card's linked accounts opened.
      const opener = {
        screenings: "tr[data-screening] .sc-open",
        dashboard: "tr[data-charge] .tx-open",
        review: "li.rv-card .ln-more > summary",
      }[path as "screenings" | "dashboard" | "review"];
      if (opener) await page.locator(opener).first().click();
      if (path === "screenings" || path === "review") {
        await page.locator("tr[data-linked-account]").first().waitFor();
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path}: page scroll width`).toBeLessThanOrEqual(PHONE.width);
      // A table scrolling inside its own box hides its last columns just the same.
      const sideways = await scrollingSideways(page);
      expect(sideways, `${path}: boxes that scroll sideways`).toEqual([]);
      // Nor does anything stick out past the screen's edge (cut off rather than scrolled).
      const beyond = await pastRightEdge(page, PHONE.width);
      expect(beyond, `${path}: elements past the right edge`).toEqual([]);
      // Nor is any text cut off by its own box (overflow hidden or clip, wider content).
      const cut = await page.locator("main *").evaluateAll((elements) =>
        elements
          .filter((el) => {
            const overflow = getComputedStyle(el).overflowX;
            // A text field scrolls its own value: that is how fields work.
            if (el.matches("input, textarea, select")) return false;
            return (
              (overflow === "hidden" || overflow === "clip") &&
              el.clientWidth > 1 &&
              el.scrollWidth > el.clientWidth + 1
            );
          })
          .map(
            (el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`,
          ),
      );
      expect(cut, `${path}: boxes that cut their text off`).toEqual([]);
    }
    page.off("console", onConsole);
    expect(logged, "console warnings and errors").toEqual([]);
  });

  it("shows five tabs in the bottom bar, apart and unclipped, on every page", async () => {
    await page.setViewportSize(PHONE);
    for (const path of PAGES) {
      await open(path);
      const bar = await tabs();
      expect(
        bar.map((tab) => tab.text.replace(/ \d+$/, "")),
        path,
      ).toEqual(["Dashboard", "Rules", "Screenings", "Review", "More"]);
      for (const [at, tab] of bar.entries()) {
        expect(tab.left, `${path} ${tab.text} left`).toBeGreaterThanOrEqual(0);
        expect(tab.right, `${path} ${tab.text} right`).toBeLessThanOrEqual(PHONE.width);
        expect(tab.height, `${path} ${tab.text} height`).toBeGreaterThanOrEqual(48);
        expect(tab.top, `${path} ${tab.text} on one row`).toBe(bar[0]?.top);
        expect(tab.clipped, `${path} ${tab.text} clipped`).toBe(false);
        const next = bar[at + 1];
        if (next) {
          // Labels are at least a few pixels apart, so they never read as one word.
          expect(next.labelLeft - tab.labelRight, `${path} ${tab.text} gap`).toBeGreaterThan(6);
        }
      }
    }
  });

  it("opens Templates and Block lists from More, marks More while there, and closes it", async () => {
    await page.setViewportSize(PHONE);
    await open("dashboard");
    const more = nav().locator("summary", { hasText: "More" });
    expect(await nav().getByRole("link", { name: "Templates" }).count()).toBe(0);
    await more.click();
    await nav().getByRole("link", { name: "Block lists" }).click();
    await page.waitForURL(`${t.baseUrl}/homepage/block-lists`);
    await page.getByRole("heading", { name: "Block lists", exact: true }).waitFor();
    expect(await nav().getByRole("link", { name: "Templates" }).count()).toBe(0);
    expect(await nav().locator("details.nav-more.active").count()).toBe(1);

    await more.click();
    await nav().getByRole("link", { name: "Templates" }).waitFor();
    await page.keyboard.press("Escape");
    await nav().getByRole("link", { name: "Templates" }).waitFor({ state: "hidden" });
    await more.click();
    await page.locator("main h1").click();
    await nav().getByRole("link", { name: "Templates" }).waitFor({ state: "hidden" });
  });

  it("shows screenings and charges as cards with the decision first and in view", async () => {
    await page.setViewportSize(PHONE);
    for (const [path, row, decision, who, shown] of [
      ["screenings", "tr[data-screening]", '[data-cell="decision"]', "td.sc-who", "Blocked"],
      ["dashboard", "tr[data-charge]", '[data-cell="outcome"]', "td.tx-email", "blocked"],
    ] as const) {
      await open(path);
      const first = page.locator(row).first();
      await first.scrollIntoViewIfNeeded();
      const badge = await first.locator(decision).boundingBox();
      const card = await first.boundingBox();
      const name = await first.locator(who).boundingBox();
      const bar = await nav().boundingBox();
      if (!badge || !card || !name || !bar) throw new Error(`${path}: first row not drawn`);
      expect(await first.locator(decision).innerText(), path).toBe(shown);
      expect(badge.x, `${path}: decision left`).toBeGreaterThanOrEqual(0);
      expect(badge.x + badge.width, `${path}: decision right`).toBeLessThanOrEqual(PHONE.width);
      expect(badge.y, `${path}: decision top`).toBeGreaterThanOrEqual(0);
      expect(badge.y + badge.height, `${path}: decision above the tab bar`).toBeLessThanOrEqual(
        bar.y,
      );
      // Decision first: on the card's first line, above who it was about.
      expect(badge.y - card.y, `${path}: decision on the first line`).toBeLessThan(24);
      expect(badge.y + badge.height, `${path}: decision above the email`).toBeLessThanOrEqual(
        name.y + 1,
      );
      expect(card.x + card.width, `${path}: card inside the screen`).toBeLessThanOrEqual(
        PHONE.width,
      );
    }
  });

  it("wraps a long email at its separators, never inside a word", async () => {
    await page.setViewportSize(PHONE);
    for (const [path, cell] of [
      ["screenings", "tr[data-screening] td.sc-who"],
      ["dashboard", "tr[data-charge] td.tx-email"],
    ] as const) {
      await open(path);
      const { text, starts } = await lineStarts(page.locator(cell).first());
      expect(text, path).toContain(LONG_EMAIL);
      expect(starts.length, `${path}: "${text}" wraps`).toBeGreaterThan(0);
      for (const start of starts) {
        const before = text[start - 1] ?? "";
        const at = text[start] ?? "";
        expect(
          at === "@" || /[.\-_+/: (]/.test(before),
          `${path}: line break in "${text.slice(start - 8, start)}|${text.slice(start, start + 8)}"`,
        ).toBe(true);
      }
    }
  });

  it("says Page not found for an unknown console path, keeping the navigation", async () => {
    await page.setViewportSize(LAPTOP);
    for (const path of ["/homepage/nope", "/homepage/dashboard/extra", "/homepage/rules/a/b"]) {
      await page.goto(`${t.baseUrl}${path}`);
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      expect(new URL(page.url()).pathname, path).toBe(path);
      await nav().getByRole("link", { name: "Dashboard" }).waitFor();
    }
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
  });

  it("keeps an outline button's label readable under the pointer", async () => {
    await page.setViewportSize(LAPTOP);
    await open("review");
    // WCAG's contrast ratio; the page behind a transparent button is white.
    const luminance = (css: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      const channels = a === 0 ? [255, 255, 255] : [r, g, b];
      const [lr = 0, lg = 0, lb = 0] = channels.map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
    };
    // A <button> and a link drawn as one: their hover rules differ.
    for (const outline of [
      page.locator("main button.secondary:enabled").first(),
      page.locator("header a.button.secondary"),
    ]) {
      await outline.hover();
      const { color, background } = await outline.evaluate((el) => {
        const style = getComputedStyle(el);
        return { color: style.color, background: style.backgroundColor };
      });
      const [light, dark] = [luminance(color), luminance(background)].sort((x, y) => y - x);
      const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
      expect(ratio, `${outline}: ${color} on ${background}`).toBeGreaterThan(4.5);
    }
  });

  it('names the block lists "Block lists" in the navigation and on their page', async () => {
    await page.setViewportSize(LAPTOP);
    await open("block-lists");
    await nav().getByRole("link", { name: "Block lists", exact: true }).waitFor();
    await page.getByRole("heading", { name: "Block lists", exact: true }).waitFor();
    expect(await page.locator("body").innerText()).not.toMatch(/blocklist/i);
  });

  it("takes the screenshots at 1280 px and 375 px that docs/screenshots keeps", async () => {
    for (const [size, viewport] of [
      ["1280", LAPTOP],
      ["375", PHONE],
    ] as const) {
      for (const path of SHOWN_IN_DOCS) {
        await page.setViewportSize(viewport);
        await open(path);
        if (path === "screenings")
          await page.locator("tr[data-screening] .sc-open").first().click();
        // The whole page in one window, so the tab bar sits at its foot, not across a card.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: viewport.width, height: Math.min(height, 2400) });
        await page.mouse.move(0, 0);
        await page.screenshot({ path: join(SCREENSHOTS, `${path}-${size}.png`) });
      }
      // The Team page as a member of two accounts sees it, switch in the header (issue 47).
      await page.setViewportSize(viewport);
      await open("team");
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: viewport.width, height: Math.min(height, 2400) });
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(ARTIFACTS_DIR, `47-team-${size}.png`) });
    }
  });
});
