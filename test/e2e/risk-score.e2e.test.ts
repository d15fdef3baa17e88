/**
 * The risk score's thresholds as a merchant moves them, in real Chromium: the Risk score page
 * says where each type's thresholds come from, a review above the block is refused beside its
 * box (nothing sent, nothing saved), Preview counts the last 30 days of the merchant's own
 * screenings under the boxes' values against today's, Save keeps them across a reload, and
 * Reset gives the type back to its template.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ThresholdsView } from "../../shared/schemas/score-thresholds.ts";
import { DEFAULT_TEMPLATES } from "../../shared/schemas/templates.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import type { Merchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";

const HOUR = 3_600_000;

describe("risk score thresholds in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let templateDefault: { review: number | null; block: number | null } | null = null;

  /** A signup screened `hours` ago with `score` and no rule's reason, as the engine stores it. */
  async function screened(score: number, hours: number) {
    const row = await t.prisma.screening.create({
      data: {
        accountId: merchant.accountId,
        createdAt: new Date(t.clock.now().getTime() - hours * HOUR),
        type: "signup",
        decision: "allow",
        score,
        rules: [],
        reasons: [],
        monitored: [],
        input: { type: "signup", user_id: `u-${score}` },
        contributions: [{ signal: "baseline", points: score, detail: "where a signup starts" }],
      },
    });
    return row.id;
  }

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("risk-score@example.com"));
    const templates = await merchant.api.json("/api/templates", {
      method: "PUT",
      body: { ...DEFAULT_TEMPLATES, template_one_human_one_trial: true },
    });
    expect(templates.status).toBe(200);
    // Signup: its own 65 / 80 today, so the page starts from known values.
    const own = await merchant.api.json<ThresholdsView>("/api/scoring/thresholds", {
      method: "PUT",
      body: { thresholds: { signup: { review: 65, block: 80 } } },
    });
    expect(own.status).toBe(200);
    templateDefault = own.body.types.find((x) => x.type === "signup")?.template_default ?? null;
    const fraud = await screened(90, 5);
    await screened(70, 4);
    await screened(50, 3);
    await screened(30, 2);
    await screened(95, 24 * 40); // older than 30 days: not counted
    const label = await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: fraud,
      label: "fraud",
    });
    expect(label).toMatchObject({ ok: true });
  });
  afterAll(() => closeConsole({ t, browser }));

  const box = (name: string) => page.getByRole("spinbutton", { name });
  const signupRow = () => page.locator('fieldset[data-type="signup"]');
  const source = () => signupRow().locator("[data-source]");
  const metric = (key: string) => page.locator(`.score-bars li[data-metric="${key}"]`);

  it("opens from the navigation and says where each type's thresholds come from", async () => {
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Risk score" })
      .click();
    await page.waitForURL(`${t.baseUrl}/homepage/risk-score`);
    await page.getByRole("heading", { name: "Risk score", exact: true }).waitFor();
    expect(await box("Signup review threshold").inputValue()).toBe("65");
    expect(await box("Signup block threshold").inputValue()).toBe("80");
    expect(await source().textContent()).toBe("Your own");
    expect(
      await page.locator('fieldset[data-type="trial_start"] [data-source]').textContent(),
    ).toBe("From One Human One Trial");
    expect(await page.locator('fieldset[data-type="login"] [data-source]').textContent()).toBe(
      "None: the score is shown, never acted on",
    );
  });

  it("refuses a review above the block beside its box, sending nothing", async () => {
    const sent: string[] = [];
    const watch = (request: { url(): string }) => {
      if (request.url().includes("scoreThresholds.")) sent.push(request.url());
    };
    page.on("request", watch);
    await box("Signup review threshold").fill("40");
    await box("Signup block threshold").fill("30");
    expect(await source().textContent()).toBe("Your own (not saved)");
    await page.getByRole("button", { name: "Preview" }).click();
    await signupRow().getByText("review must not be above block").waitFor();
    expect(await box("Signup review threshold").getAttribute("aria-invalid")).toBe("true");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Not saved: check the boxes marked above.").waitFor();
    page.off("request", watch);
    expect(sent).toEqual([]);
    expect((await merchant.api.json<ThresholdsView>("/api/scoring/thresholds")).body.own).toEqual({
      signup: { review: 65, block: 80 },
    });
  });

  it("previews the last 30 days under the boxes' values against today's", async () => {
    await box("Signup block threshold").fill("60");
    expect(await signupRow().locator(".field-error").count()).toBe(0);
    const answered = page.waitForResponse((r) => r.url().includes("scoreThresholds.preview"));
    await page.getByRole("button", { name: "Preview" }).click();
    expect((await answered).status()).toBe(200);
    await page.locator("[data-preview]").waitFor();
    // 90, 70, 50, 30: today (65/80) blocks 90, reviews 70; proposed (40/60) blocks 90 and 70,
    // reviews 50. The fraud at 90 is caught either way.
    const figures = async (key: string) => [
      await metric(key).getAttribute("data-now"),
      await metric(key).getAttribute("data-proposed"),
    ];
    expect(await figures("blocked")).toEqual(["1", "2"]);
    expect(await figures("reviewed")).toEqual(["1", "1"]);
    expect(await figures("fraud_caught")).toEqual(["1", "1"]);
    expect(await page.locator(".score-preview-scope").textContent()).toContain(
      "4 scored screenings, 1 labelled fraud",
    );
    expect(
      await page.locator('tr[data-preview-type="signup"] td[data-metric="blocked"]').textContent(),
    ).toBe("1 → 2");
    await page.mouse.move(0, 0);
    await screenshot(page, "risk-score-preview");
    // Nothing is saved by a preview.
    expect((await merchant.api.json<ThresholdsView>("/api/scoring/thresholds")).body.own).toEqual({
      signup: { review: 65, block: 80 },
    });
  });

  it("saves them, and they are still there after a reload", async () => {
    const answered = page.waitForResponse((r) => r.url().includes("scoreThresholds.put"));
    await page.getByRole("button", { name: "Save" }).click();
    expect((await answered).status()).toBe(200);
    await page.getByText("Saved.").waitFor();
    expect(await source().textContent()).toBe("Your own");
    await page.reload();
    await box("Signup review threshold").waitFor();
    expect(await box("Signup review threshold").inputValue()).toBe("40");
    expect(await box("Signup block threshold").inputValue()).toBe("60");
    expect(await source().textContent()).toBe("Your own");
    expect((await merchant.api.json<ThresholdsView>("/api/scoring/thresholds")).body.own).toEqual({
      signup: { review: 40, block: 60 },
    });
  });

  it("resets a type to its template's thresholds", async () => {
    await page.getByRole("button", { name: "Reset Signup to the templates' default" }).click();
    expect(await source().textContent()).toBe("From One Human One Trial (not saved)");
    const shown = (value: number | null | undefined) => (value == null ? "" : String(value));
    expect(await box("Signup review threshold").inputValue()).toBe(shown(templateDefault?.review));
    expect(await box("Signup block threshold").inputValue()).toBe(shown(templateDefault?.block));
    const answered = page.waitForResponse((r) => r.url().includes("scoreThresholds.put"));
    await page.getByRole("button", { name: "Save" }).click();
    expect((await answered).status()).toBe(200);
    await page.reload();
    await box("Signup review threshold").waitFor();
    expect(await source().textContent()).toBe("From One Human One Trial");
    expect((await merchant.api.json<ThresholdsView>("/api/scoring/thresholds")).body.own).toEqual(
      {},
    );
    await screenshot(page, "risk-score");
  });

  it("fits a phone's width, the preview included", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator("[data-preview]").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    // Nothing scrolls sideways inside its box, and nothing sticks out past the screen's edge.
    const cut = await page.locator("main *").evaluateAll((elements) =>
      elements
        .filter((el) => {
          const overflow = getComputedStyle(el).overflowX;
          const scrolls =
            (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1;
          const box = el.getBoundingClientRect();
          const clipped = el.closest("thead") !== null;
          return scrolls || (!clipped && box.width > 1 && box.right > 376);
        })
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    );
    expect(cut).toEqual([]);
    await page.mouse.move(0, 0);
    await screenshot(page, "risk-score-375");
  });
});
