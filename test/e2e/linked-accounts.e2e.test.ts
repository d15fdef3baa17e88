/**
 * Linked accounts in real Chromium against the real app (decision 023): three accounts screened
 * through the API share a card; the third's row on Screenings says it is linked to the other
 * two through the card and lists them, newest first; a review of a fourth shows the line on its
 * card and the list behind "Linked accounts".
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

const CARD = "fp_e2e_shared_card";
const BOT = "python-requests/2.31";

describe("linked accounts in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("linked-accounts@example.com"));
    backend = await backendOf(t, merchant);
    for (const n of [1, 2, 3]) {
      const answer = await backend.decide({
        type: "signup",
        user_id: `u-card-${n}`,
        email: `card-${n}@example.com`,
        card_fingerprint: CARD,
        ip: "73.10.2.3",
      });
      ids.push(answer.id);
      t.clock.advance(60_000);
    }
  });
  afterAll(() => closeConsole({ t, browser }));

  it("opens the third account's screening and sees the two others linked through the card", async () => {
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    const row = page.locator(`tr[data-screening="${ids[2]}"]`);
    await row.locator(".sc-open").click();
    const detail = page.locator(`#screening-${ids[2]}`);
    const line = detail.locator("[data-linked-line]");
    await line.waitFor();
    expect(await line.innerText()).toBe(
      "Linked to 2 accounts first seen in the last hour, through card.",
    );
    const linked = detail.getByRole("table", { name: "Linked accounts, newest first" });
    expect(await linked.getByRole("columnheader").allInnerTexts()).toEqual([
      "Account",
      "First seen",
      "Screenings",
      "Status",
      "Through",
    ]);
    const rows = linked.locator("tr[data-linked-account]");
    expect(await rows.count()).toBe(2);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain("card-2@example.com (u-card-2)");
    expect(texts[1]).toContain("card-1@example.com (u-card-1)");
    for (const text of texts) expect(text).toMatch(/\bcard\b/);
    await screenshot(page, "linked-accounts-screenings");

    // The first account's screening came before the others: linked to nobody, and it says so.
    await page.locator(`tr[data-screening="${ids[0]}"] .sc-open`).click();
    await page
      .locator(`#screening-${ids[0]}`)
      .getByText("No other account shared its identities in the 30 days before.")
      .waitFor();
  });

  it("shows the line on a review card, and the list behind Linked accounts", async () => {
    await turnOn(merchant, "rule_scraping");
    const review = await backend.decide({
      type: "request",
      user_agent: BOT,
      user_id: "u-card-4",
      card_fingerprint: CARD,
    });
    expect(review.decision).toBe("review");
    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator(`li.rv-card[data-id="${review.id}"]`);
    const line = card.locator("[data-linked-line]");
    await line.waitFor();
    expect(await line.innerText()).toMatch(/^Linked to 3 accounts .*through card/);
    await card.getByText("Linked accounts", { exact: true }).click();
    const rows = card.locator("tr[data-linked-account]");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    expect(await rows.first().innerText()).toContain("u-card-3");
    await screenshot(page, "linked-accounts-review");
  });
});
