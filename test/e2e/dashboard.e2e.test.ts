/** The transaction dashboard as a merchant sees it, in real Chromium. */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NETWORK_ERROR } from "../../client/src/lib/trpc.ts";
import type { Prisma } from "../../server/db/generated/client.ts";
import { RULE_CATALOG } from "../../shared/catalog/rules.ts";
import { launchBrowser, screenshot, signInAs } from "../helpers/browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

/** The spec's colours (styles.css): red, green, yellow and gray as Chromium computes them. */
const RED = "rgb(198, 40, 40)";
const GREEN = "rgb(46, 125, 50)";
const YELLOW = "rgb(183, 121, 31)";
const GRAY = "rgb(107, 114, 128)";

const COLUMNS = [
  "Charge ID",
  "Amount",
  "Currency",
  "Email",
  "Created",
  "Outcome",
  "Reason",
  "Risk Level & Score",
  "Blocked By",
];

describe("transaction dashboard in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let empty: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const now = Math.floor(Date.now() / 1000);

  function row(chargeId: string, fields: Partial<Prisma.TransactionCreateManyInput> = {}) {
    return {
      accountId: merchant.accountId,
      chargeId,
      hasCharge: true,
      amount: 1000,
      currency: "usd",
      email: "filler@example.com",
      created: now - 3600,
      status: "succeeded",
      captured: true,
      outcome: "succeeded",
      riskLevel: "normal",
      riskScore: 5,
      ...fields,
    };
  }

  beforeAll(async () => {
    t = await startTestApp("embedded");
    merchant = await signedInMerchant(t, "dashboard@example.com");
    empty = await signedInMerchant(t, "empty-dashboard@example.com");
    await t.prisma.transaction.createMany({
      data: [
        row("ch_1Alice", { amount: 1999, email: "alice@example.com", created: now - 60 }),
        row("ch_2Radar", {
          outcome: "blocked",
          outcomeReason: "highest_risk_level",
          riskLevel: "highest",
          riskScore: 91,
          blockedBy: "stripe",
          email: "mallory@fraud.test",
          created: now - 120,
        }),
        row("ch_3Rule", {
          amount: 5000,
          outcome: "blocked",
          riskLevel: "elevated",
          riskScore: 82,
          blockedBy: "custom_rule",
          ruleReason: "risk score 82 above threshold 70",
          ruleKeys: ["rule_high_risk"],
          actionKind: "refund",
          actionStatus: "failed",
          actionError: "Charge ch_3Rule has already been refunded.",
          email: "eve@example.com",
          created: now - 180,
        }),
        row("ch_4Yen", {
          amount: 1500,
          currency: "jpy",
          email: "taro@example.jp",
          created: now - 240,
        }),
        row("ch_5Pending", {
          outcome: "pending",
          riskLevel: null,
          riskScore: null,
          created: now - 300,
        }),
        row("ch_6Live", { outcome: "authorized", livemode: true, created: now - 360 }),
        // Older filler, so the first page (50) leaves some for "Load more".
        ...Array.from({ length: 52 }, (_, i) =>
          row(`ch_9Filler${String(i).padStart(2, "0")}`, { created: now - 7200 - i }),
        ),
      ],
    });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(m: Merchant) {
    await signInAs(browser.context, t.baseUrl, m.token);
  }

  const table = () => page.getByRole("table");
  const bodyRow = (chargeId: string) => page.locator(`tbody tr[data-charge="${chargeId}"]`);
  const cells = async (chargeId: string) => bodyRow(chargeId).locator("td").allInnerTexts();
  const color = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).color);

  it("shows 'No transactions found.' and the demo button on an empty account", async () => {
    await signIn(empty);
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
    await page.getByText("No transactions found.", { exact: true }).waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    await page.getByRole("button", { name: "Load demo data…" }).waitFor();
    await screenshot(page, "dashboard-empty");
  });

  it("fills an empty dashboard from the demo events, formatted and coloured, and filters them", async () => {
    // The first button says what loading does; the second, in that notice, loads.
    await page.getByRole("button", { name: "Load demo data…" }).click();
    // Charges show as they arrive (live updates): read them once the whole demo is in.
    const loaded = page.waitForResponse((r) => r.url().includes("/trpc/stripe.loadDemo"));
    await page.getByRole("button", { name: "Load demo data", exact: true }).click();
    expect((await loaded).status()).toBe(200);
    await table().waitFor({ timeout: 20_000 });
    const rows = page.locator("tbody tr");
    const stored = await t.prisma.transaction.count({ where: { accountId: empty.accountId } });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(Math.min(stored, 50));
    const all = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")];
        const style = (selector: string) => {
          const el = tr.querySelector(selector);
          return el ? getComputedStyle(el).color : null;
        };
        return {
          text: cells.map((td) => (td as HTMLElement).innerText),
          outcomeColour: style('[data-cell="outcome"]'),
          riskColour: style('[data-cell="risk"]'),
        };
      }),
    );
    expect(all.length).toBeGreaterThanOrEqual(5);
    // Every rule is one of Warden's own: a rule block names its rules, never "Custom Rule".
    const labels = new Set(RULE_CATALOG.map((rule) => rule.label));
    const namesRules = (blockedBy: string | undefined) => {
      const named = blockedBy?.split("\n")[0]?.split(", ") ?? [];
      return named.length > 0 && named.every((name) => labels.has(name));
    };
    for (const { text, outcomeColour, riskColour } of all) {
      const [id, amount, currency, , created, outcome, reason, risk, blockedBy] = text;
      expect(id).toMatch(/^(ch|py)_/);
      expect(amount).toMatch(/^\d+\.\d{2}$/);
      expect(currency).toBe(currency?.toUpperCase());
      expect(created).toMatch(/\d/);
      expect(reason?.length).toBeGreaterThan(0);
      if (!namesRules(blockedBy)) expect(blockedBy?.split("\n")[0]).toMatch(/^(Stripe|-)$/);
      const expectedOutcome =
        outcome === "failed" || outcome === "blocked"
          ? RED
          : outcome === "succeeded" || outcome === "authorized"
            ? GREEN
            : GRAY;
      expect(outcomeColour, `${id} ${outcome}`).toBe(expectedOutcome);
      const level = risk?.split(" ")[0];
      const expectedRisk = level === "highest" ? RED : level === "elevated" ? YELLOW : GREEN;
      expect(riskColour, `${id} ${risk}`).toBe(expectedRisk);
    }
    const outcomes = all.map((r) => r.text[5]);
    expect(outcomes).toContain("blocked");
    expect(all.some((r) => r.text[8]?.startsWith("Stripe"))).toBe(true);
    // Demo charges go through the ingest like real ones: each rule block names its rules.
    expect(all.some((r) => namesRules(r.text[8]))).toBe(true);
    expect(all.some((r) => r.text[8]?.includes("Custom Rule"))).toBe(false);
    await screenshot(page, "dashboard-demo");

    await page.getByLabel("Outcome").selectOption("blocked");
    const blocked = outcomes.filter((o) => o === "blocked").length;
    await expect.poll(() => rows.count()).toBe(blocked);
    expect(blocked).toBeLessThan(all.length);
    expect(new Set(await rows.locator('[data-cell="outcome"]').allInnerTexts())).toEqual(
      new Set(["blocked"]),
    );
  });

  it("renders the nine columns with the spec's formatting", async () => {
    await signIn(merchant);
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await table().waitFor();
    expect(await table().locator("thead th").allInnerTexts()).toEqual(COLUMNS);

    const createdText = (seconds: number) =>
      page.evaluate((s) => new Date(s * 1000).toLocaleString(), seconds);
    expect(await cells("ch_1Alice")).toEqual([
      "ch_1Alice",
      "19.99",
      "USD",
      "alice@example.com",
      await createdText(now - 60),
      "succeeded",
      "-",
      "normal (5)",
      "-",
    ]);
    const radar = await cells("ch_2Radar");
    expect(radar.slice(5)).toEqual(["blocked", "highest_risk_level", "highest (91)", "Stripe"]);
    const rule = await cells("ch_3Rule");
    expect(rule[1]).toBe("50.00");
    expect(rule.slice(5, 8)).toEqual([
      "blocked",
      "risk score 82 above threshold 70",
      "elevated (82)",
    ]);
    expect(rule[8]).toBe(
      "Too high risk level with threshold\nrefund failed: Charge ch_3Rule has already been refunded.",
    );
    expect((await cells("ch_4Yen")).slice(1, 3)).toEqual(["1500.00", "JPY"]);
    expect((await cells("ch_5Pending")).slice(5, 9)).toEqual(["pending", "-", "-", "-"]);
    await screenshot(page, "dashboard-rows");
  });

  it("colours outcomes and risk levels as spec §4 says", async () => {
    const outcome = (id: string) => color(bodyRow(id).locator('[data-cell="outcome"]'));
    const risk = (id: string) => color(bodyRow(id).locator('[data-cell="risk"]'));
    expect(await outcome("ch_1Alice")).toBe(GREEN); // succeeded
    expect(await outcome("ch_6Live")).toBe(GREEN); // authorized
    expect(await outcome("ch_2Radar")).toBe(RED); // blocked
    expect(await outcome("ch_5Pending")).toBe(GRAY); // pending
    expect(await risk("ch_2Radar")).toBe(RED); // highest
    expect(await risk("ch_3Rule")).toBe(YELLOW); // elevated
    expect(await risk("ch_1Alice")).toBe(GREEN); // normal
    expect(await risk("ch_5Pending")).toBe(GREEN); // none
    expect(await color(bodyRow("ch_3Rule").locator('[data-cell="action"]'))).toBe(RED);
  });

  it("links each charge to the Stripe dashboard in a new tab, test or live", async () => {
    const link = (id: string) => bodyRow(id).getByRole("link");
    expect(await link("ch_1Alice").getAttribute("href")).toBe(
      "https://dashboard.stripe.com/test/payments/ch_1Alice",
    );
    expect(await link("ch_6Live").getAttribute("href")).toBe(
      "https://dashboard.stripe.com/payments/ch_6Live",
    );
    expect(await link("ch_1Alice").getAttribute("target")).toBe("_blank");
    expect(await link("ch_1Alice").getAttribute("rel")).toContain("noopener");
  });

  it("shows totals and a described chart of the last 30 days", async () => {
    const totals = page.getByRole("region", { name: "Totals, last 30 days" });
    expect(await totals.locator('[data-total="Charges"]').innerText()).toBe("58");
    expect(await totals.locator('[data-total="Blocked"]').innerText()).toBe("2");
    const chart = page.getByRole("img", { name: /Charges per day, last 30 days/ });
    await chart.waitFor();
    expect(await chart.locator("desc").textContent()).toMatch(/56 allowed and 2 blocked/);
  });

  it("loads the next page with the cursor", async () => {
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBe(58);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-charge")));
    expect(new Set(ids).size).toBe(58);
  });

  it("narrows the rows with a filter and with the search box", async () => {
    const rows = page.locator("tbody tr");
    await page.getByLabel("Outcome").selectOption("blocked");
    await expect.poll(() => rows.count()).toBe(2);
    expect(
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-charge"))),
    ).toEqual(["ch_2Radar", "ch_3Rule"]);
    await page.getByLabel("Blocked by").selectOption("custom_rule");
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel("Outcome").selectOption("");
    await page.getByLabel("Blocked by").selectOption("");
    // Back to the unfiltered list, with the page loaded earlier still there.
    await expect.poll(() => rows.count()).toBe(58);

    await page.getByLabel("Search").fill("alice");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await bodyRow("ch_1Alice").count()).toBe(1);
    await page.getByLabel("Search").fill("nobody-here");
    await page.getByText("No transactions found.", { exact: true }).waitFor();
    await page.getByLabel("Search").fill("ch_4Yen");
    await expect.poll(() => rows.count()).toBe(1);
    await screenshot(page, "dashboard-filtered");
  });

  it("says so when the transactions cannot be loaded", async () => {
    // The batch link may put summary and list in one request; refuse any that carries the list.
    const carriesList = (url: URL) => url.pathname.includes("dashboard.list");
    await page.route(carriesList, (route) => route.abort());
    await page.reload();
    // Not the browser's "Failed to fetch": what happened, and what to do.
    await page
      .getByRole("alert")
      .filter({ hasText: `Could not load transactions: ${NETWORK_ERROR}` })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByText("Failed to fetch").count()).toBe(0);
    await page.unroute(carriesList);
  });
});
