/**
 * The risk score's breakdown in real Chromium against the real app: a signup with several
 * signals (a card two accounts used minutes before, a hosting network, a disposable email, no
 * browser) screened through the API goes to review; its card shows the score and one line per
 * contribution, the baseline first, their points adding up to the score; the Screenings page's
 * open row shows the same. A sum past 100 says it was held, what takes points off is in another
 * colour, signals with no weight sit behind a disclosure, a screening stored before the score says it has no
 * breakdown, and all of it fits a 375 px phone. The card's screenshot goes to test-results/,
 * or to docs/screenshots/review-card-score.png with UPDATE_DOC_SCREENSHOTS=1. On a fresh
 * account a score of 100 that nothing acts on says so in its detail, and the Dashboard's
 * recommended set-up makes the next one act (issue 47).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Contribution, ScreenResult } from "../../shared/schemas/screening.ts";
import { ARTIFACTS_DIR, screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

const SCREENSHOTS = process.env.UPDATE_DOC_SCREENSHOTS
  ? join(process.cwd(), "docs/screenshots")
  : ARTIFACTS_DIR;
const CARD = "fp_score_breakdown";
const PHONE = { width: 375, height: 812 };

/** "+22", "−10", "7" (the baseline) as a number. */
const pointsOf = (text: string) => Number(text.replace("−", "-"));
const sum = (parts: readonly Contribution[]) => parts.reduce((total, c) => total + c.points, 0);

describe("risk score breakdown in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let backend: Backend;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let reviewed: ScreenResult;

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("score-breakdown@example.com"));
    backend = await backendOf(t, merchant);
    // Disposable emails go to review rather than being blocked.
    await turnOn(merchant, "rule_email");
    const put = await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_email: { action: "review" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Two accounts paid with one card a few minutes ago, from a home network.
    for (const n of [1, 2]) {
      await backend.decide({
        type: "signup",
        user_id: `u-card-${n}`,
        email: `card-${n}@example.com`,
        card_fingerprint: CARD,
        ip: "73.10.2.3",
      });
      t.clock.advance(60_000);
    }
    // Now a third with the same card, from a hosting provider's address (Scaleway), a
    // disposable email, and no collector token nor device id.
    reviewed = await backend.decide({
      type: "signup",
      user_id: "u-card-3",
      email: "temp@mailinator.com",
      ip: "51.15.0.1",
      card_fingerprint: CARD,
    });
    expect(reviewed.decision).toBe("review");
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => closeConsole({ t, browser }));

  /** What a breakdown shows: the big number, each line's points, signal and text. */
  const shown = async (scope: Locator) => {
    const section = scope.getByRole("region", { name: "Risk score" });
    await section.waitFor();
    const lines = section.getByRole("list", { name: "What the risk score adds up" }).locator("li");
    return {
      section,
      score: Number(await section.locator("[data-score]").innerText()),
      lines: await lines.evaluateAll((items) =>
        items.map((li) => ({
          signal: li.getAttribute("data-signal") ?? "",
          kind: li.className.replace("sb-line ", ""),
          points: li.querySelector(".sb-points")?.textContent ?? "",
          text: (li as HTMLElement).innerText.replace(/\s+/g, " ").trim(),
          colour: getComputedStyle(li.querySelector(".sb-points") as Element).color,
          bar:
            (li.querySelector(".sb-bar") as HTMLElement | null)?.getBoundingClientRect().width ?? 0,
        })),
      ),
    };
  };

  it("shows the review card's score as lines whose points add up to it", async () => {
    const { contributions, score } = reviewed;
    const signals = contributions.map((c) => c.signal);
    expect(signals).toEqual(
      expect.arrayContaining([
        "baseline",
        "account_new",
        "linked_last_hour",
        "accounts_on_card",
        "hosting_network",
        "no_browser",
        "disposable_email",
      ]),
    );
    expect(score).toBe(Math.max(0, Math.min(100, sum(contributions))));

    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator(`li.rv-card[data-id="${reviewed.id}"]`);
    const { section, score: big, lines } = await shown(card);
    expect(big).toBe(score);
    // One line per contribution with points, in the answer's order, the baseline first.
    const weighted = contributions.filter((c) => c.signal === "baseline" || c.points !== 0);
    expect(lines.map((l) => l.signal)).toEqual(weighted.map((c) => c.signal));
    expect(lines[0]?.kind).toBe("baseline");
    for (const [i, line] of lines.entries()) {
      const c = weighted[i] as Contribution;
      expect(pointsOf(line.points), c.signal).toBe(c.points);
      expect(line.text, c.signal).toBe(`${line.points} ${c.detail}`);
      expect(line.bar, `${c.signal}: its bar is drawn`).toBeGreaterThan(0);
    }
    expect(lines.find((l) => l.signal === "hosting_network")?.text).toMatch(
      /^\+\d+ from a hosting provider's network \(AS12876\)$/,
    );
    expect(lines.find((l) => l.signal === "disposable_email")?.text).toMatch(
      /^\+\d+ disposable email domain mailinator\.com$/,
    );
    // What a person adds up on the card is the score, unless the note says it was held.
    const added = lines.reduce((total, l) => total + pointsOf(l.points), 0);
    if (added >= 0 && added <= 100) {
      expect(added).toBe(big);
      expect(await section.locator("[data-held]").count()).toBe(0);
    } else {
      expect(await section.locator("[data-held]").innerText()).toContain("the score is held to");
    }
    expect(lines.find((l) => l.signal === "linked_last_hour")?.text).toMatch(
      /^\+\d+ linked to 2 accounts first seen in the last hour through card/,
    );
    const hosting = lines.find((l) => l.signal === "hosting_network");
    expect(lines[0]?.colour, "the baseline is greyed").not.toBe(hosting?.colour);

    await page.mouse.move(0, 0);
    await card.screenshot({ path: join(SCREENSHOTS, "review-card-score.png") });
  });

  it("shows the same lines on the screening's open row on Screenings", async () => {
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${reviewed.id}"] .sc-open`).click();
    const { score, lines } = await shown(page.locator(`#screening-${reviewed.id}`));
    expect(score).toBe(reviewed.score);
    expect(lines.map((l) => [l.signal, pointsOf(l.points)])).toEqual(
      reviewed.contributions
        .filter((c) => c.signal === "baseline" || c.points !== 0)
        .map((c) => [c.signal, c.points]),
    );
  });

  it("says when the sum was held to 100, and keeps signals with no weight behind a disclosure", async () => {
    const answer = await backend.decide({ type: "login", user_id: "u-held" });
    const stored: Contribution[] = [
      { signal: "baseline", points: 60, detail: "where a login starts" },
      { signal: "linked_last_hour", points: 40, detail: "linked to 6 accounts", value: 2.807 },
      { signal: "account_new", points: 30, detail: "account 3 min old", value: 1 },
      { signal: "returning_account", points: -10, detail: "returning account", value: 1 },
      { signal: "webdriver", points: 0, detail: "the browser reports it is automated", value: 1 },
      { signal: "fast_submit", points: 0, detail: "form submitted 90 ms after", value: 1 },
    ];
    await t.prisma.screening.update({
      where: { id: answer.id },
      data: { score: 100, contributions: stored },
    });
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${answer.id}"] .sc-open`).click();
    const detail = page.locator(`#screening-${answer.id}`);
    const { section, score, lines } = await shown(detail);
    expect(score).toBe(100);
    expect(lines.map((l) => l.text)).toEqual([
      "60 where a login starts",
      "+40 linked to 6 accounts",
      "+30 account 3 min old",
      "−10 returning account",
    ]);
    expect(await section.locator("[data-held]").innerText()).toBe(
      "The points add up to 120; the score is held to 100.",
    );
    // What takes points off is drawn in another colour than what adds them, the baseline grey.
    const [start, up, , down] = lines;
    expect(down?.kind).toBe("down");
    expect(down?.colour).not.toBe(up?.colour);
    expect(start?.colour).not.toBe(up?.colour);
    expect(start?.colour).not.toBe(down?.colour);
    const more = section.locator("details.sb-more");
    expect(await more.locator("summary").innerText()).toBe("2 more signals with no weight");
    const hidden = more.getByRole("list", { name: "Signals with no weight" });
    expect(await hidden.isVisible()).toBe(false);
    await more.locator("summary").click();
    expect(await hidden.locator("li").allInnerTexts()).toEqual([
      expect.stringMatching(/^0\s+the browser reports it is automated$/),
      expect.stringMatching(/^0\s+form submitted 90 ms after$/),
    ]);
  });

  it("shows the score alone for a screening stored before the risk score", async () => {
    const answer = await backend.decide({ type: "login", user_id: "u-before" });
    await t.prisma
      .$executeRaw`UPDATE "Screening" SET "contributions" = NULL WHERE "id" = ${answer.id}`;
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${answer.id}"] .sc-open`).click();
    const section = page
      .locator(`#screening-${answer.id}`)
      .getByRole("region", { name: "Risk score" });
    expect(await section.locator("[data-score]").innerText()).toBe(String(answer.score));
    expect(await section.locator("[data-no-breakdown]").innerText()).toBe(
      "No breakdown: screened before the risk score",
    );
    expect(await section.locator("li").count()).toBe(0);
  });

  it("fits a 375 px phone: no line, bar or sentence past the screen's edge", async () => {
    await page.setViewportSize(PHONE);
    try {
      for (const [path, open] of [
        ["review", null],
        ["screenings", `tr[data-screening="${reviewed.id}"] .sc-open`],
      ] as const) {
        await page.goto(`${t.baseUrl}/homepage/${path}`);
        if (open) await page.locator(open).click();
        const section = page.getByRole("region", { name: "Risk score" }).first();
        await section.waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${path}: page scroll width`).toBeLessThanOrEqual(PHONE.width);
        const beyond = await section
          .locator("*")
          .evaluateAll(
            (elements, edge) =>
              elements
                .filter((el) => el.getBoundingClientRect().right > edge)
                .map((el) => `${el.className}: ${el.textContent?.slice(0, 40)}`),
            PHONE.width,
          );
        expect(beyond, `${path}: past the right edge`).toEqual([]);
        // Each sentence keeps a readable width beside its points.
        const narrowest = await section
          .locator(".sb-detail")
          .evaluateAll((els) => Math.min(...els.map((el) => el.getBoundingClientRect().width)));
        expect(narrowest, path).toBeGreaterThan(200);
        await screenshot(page, `score-breakdown-${path}-375`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
  it("says a score nothing acted on was not acted on, and why, until the recommended set-up acts on it", async () => {
    // A fresh account of its own: no rule, template or threshold.
    const fresh = await signedInMerchant(t, "not-acted-on@example.com");
    const freshBackend = await backendOf(t, fresh);
    const bad = {
      type: "signup",
      email: "temp@mailinator.com",
      ip: "51.15.0.1",
      user_agent: "python-requests/2.31",
    } as const;
    const before = await freshBackend.decide({ ...bad, user_id: "u-bad-1" });
    expect(before.decision).toBe("allow");
    expect(before.score).toBe(100);
    const note = "score 100, not acted on: no threshold for signups; set one or turn on a template";
    expect(before.score_note).toBe(note);

    await signInAs(browser.context, t.baseUrl, fresh.token);
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${before.id}"] .sc-open`).click();
    const detail = page.locator(`#screening-${before.id}`);
    const said = detail.locator("[data-score-note]");
    await said.waitFor();
    expect(await said.innerText()).toContain(`No rule fired: allowed; ${note}.`);
    expect(await detail.getByText("No rule fired: allowed.", { exact: true }).count()).toBe(0);
    // The sentence wraps inside the detail (its links too): nothing past the table's edge.
    const [noteRight, tableRight] = await Promise.all([
      said.evaluate((el) => el.getBoundingClientRect().right),
      detail.evaluate((el) => el.closest("table")?.parentElement?.getBoundingClientRect().right),
    ]);
    expect(noteRight).toBeLessThanOrEqual(tableRight ?? 0);
    await page.mouse.move(0, 0);
    await page.screenshot({
      path: join(ARTIFACTS_DIR, "47-not-acted-on-1280.png"),
      fullPage: true,
    });
    await page.setViewportSize(PHONE);
    try {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, "the detail fits a phone").toBeLessThanOrEqual(PHONE.width);
      const right = await said.evaluate((el) => el.getBoundingClientRect().right);
      expect(right, "the note inside the screen").toBeLessThanOrEqual(PHONE.width);
      // As tall as the page, so the bottom bar does not cover the note in the picture.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: PHONE.width, height });
      await page.screenshot({
        path: join(ARTIFACTS_DIR, "47-not-acted-on-375.png"),
        fullPage: true,
      });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // Sent to review (by a rule, say), its card in the queue says the same of the score.
    await t.prisma.screening.update({ where: { id: before.id }, data: { decision: "review" } });
    await page.goto(`${t.baseUrl}/homepage/review`);
    const cardNote = page.locator(`li.rv-card[data-id="${before.id}"] [data-score-note]`);
    await cardNote.waitFor();
    expect(await cardNote.innerText()).toContain(note);
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${before.id}"] .sc-open`).click();
    await said.waitFor();

    // Its "Set thresholds" opens Risk score scrolled to the thresholds, below the fold.
    await said.getByRole("link", { name: "Set thresholds" }).click();
    await page.waitForURL(/\/homepage\/risk-score#score-thresholds-title$/);
    const heading = page.locator("#score-thresholds-title");
    await heading.waitFor();
    await page.waitForFunction(() => {
      const top = document.getElementById("score-thresholds-title")?.getBoundingClientRect().top;
      return top !== undefined && top > 0 && top < window.innerHeight;
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    // A viewer sees the card with the button off and why, from the one roles table.
    const viewer = await signedInMerchant(t, "not-acted-on-viewer@example.com");
    const viewerId = (await t.prisma.user.findUniqueOrThrow({ where: { email: viewer.email } })).id;
    await t.prisma.membership.create({
      data: { accountId: fresh.accountId, userId: viewerId, role: "viewer" },
    });
    const session = await t.app.services.sessions.create(viewerId, fresh.accountId);
    await signInAs(browser.context, t.baseUrl, session.token);
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    const seen = page.locator("[data-getting-started]");
    await seen.getByText("You are a viewer in this account").waitFor();
    expect(
      await seen.getByRole("button", { name: "Turn on the recommended set-up" }).isDisabled(),
    ).toBe(true);
    await signInAs(browser.context, t.baseUrl, fresh.token);

    // Getting started on the Dashboard says what the set-up turns on, and turns it on.
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    const card = page.locator("[data-getting-started]");
    await card.waitFor();
    const offered = await card.innerText();
    expect(offered).toMatch(/signups: review from \d+, block from \d+/);
    expect(offered).toContain("One Human One Trial");
    await screenshot(page, "47-getting-started-1280");
    await page.setViewportSize(PHONE);
    try {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, "the card fits a phone").toBeLessThanOrEqual(PHONE.width);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: PHONE.width, height });
      await screenshot(page, "47-getting-started-375");
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await card.getByRole("button", { name: "Turn on the recommended set-up" }).click();
    await page.getByRole("status").filter({ hasText: "the recommended set-up is on" }).waitFor();
    expect(await card.count()).toBe(0);
    const templates = await fresh.api.json<Record<string, boolean>>("/api/templates");
    expect(templates.body.template_one_human_one_trial).toBe(true);

    const after = await freshBackend.decide({ ...bad, user_id: "u-bad-2" });
    expect(after.decision).not.toBe("allow");
    expect(after.reasons.map((r) => r.rule)).toContain("risk_score");
    expect(after).not.toHaveProperty("score_note");
    await page.goto(`${t.baseUrl}/homepage/screenings`);
    await page.locator(`tr[data-screening="${after.id}"] .sc-open`).click();
    const acted = page.locator(`#screening-${after.id}`);
    await acted.locator('li[data-rule="risk_score"]').waitFor();
    expect(await acted.locator("[data-score-note]").count()).toBe(0);
    // The first one still says it was not acted on, now that one would be.
    await page.locator(`tr[data-screening="${before.id}"] .sc-open`).click();
    expect(await page.locator(`#screening-${before.id} [data-score-note]`).innerText()).toMatch(
      /score 100, not acted on when it was screened; signups have a threshold now \(\d+\)/,
    );
  });
});
