/**
 * Weights from a merchant's labels, as a merchant uses them in real Chromium: 50 fraud and 50
 * legitimate screenings labelled through the API; on the Risk score page the merchant proposes
 * new weights (a progress state while the fit runs), reads the backtest against the weights in
 * force and the biggest weight changes, reads the proposal's warning (every label came from one
 * API key), adopts them behind a confirmation whose Adopt stays disabled until the warning's
 * box is ticked, sees them in force (and the next screening scored with them), then rolls back
 * to the defaults.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weightsName } from "../../client/src/lib/rule-format.ts";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";
import { screenshot } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Backend, backendOf } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15";
const BOT = "python-requests/2.31";

describe.each(DB_KINDS)("weights from labels in Chromium (%s)", (kind) => {
  let t: TestApp;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let backend: Backend;

  beforeAll(async () => {
    let merchant: ConsoleBrowser["merchant"];
    ({ t, merchant, browser, page } = await openConsole(`models-${kind}@example.com`, kind));
    backend = await backendOf(t, merchant);
    // A template that judges signups by their score, so the backtest has thresholds to apply.
    const templates = (await merchant.api.json<Record<string, boolean>>("/api/templates")).body;
    const put = await merchant.api.json("/api/templates", {
      method: "PUT",
      body: { ...templates, template_account_farm_shield: true },
    });
    expect(put.status).toBe(200);
    // Fraud: signups with a bot's user agent; legitimate: from a browser.
    for (let i = 0; i < 50; i++) {
      for (const fraud of [true, false]) {
        const answer = await backend.decide({
          type: "signup",
          email: `${fraud ? "f" : "ok"}${i}@mail.example`,
          ip: fraud ? `198.51.100.${i}` : `203.0.${i}.7`,
          user_agent: fraud ? BOT : BROWSER,
        });
        t.clock.advance(1000);
        const labelled = await backend.client.json("/api/v1/labels", {
          body: {
            subject_kind: "screening",
            subject_id: answer.id,
            label: fraud ? "fraud" : "legitimate",
          },
        });
        expect(labelled.status).toBe(200);
      }
    }
  });
  afterAll(() => closeConsole({ t, browser }));

  /** The points bot_user_agent adds to the next signup with a bot's user agent. */
  async function nextBotPoints(n: number) {
    const answer = await backend.decide({
      type: "signup",
      email: `next${n}@mail.example`,
      user_agent: BOT,
    });
    return answer.contributions.find((c) => c.signal === "bot_user_agent")?.points;
  }

  it("proposes with progress, shows the backtest, adopts on confirm, then rolls back", async () => {
    await page.goto(`${t.baseUrl}/homepage/risk-score`);
    const section = page.getByRole("region", { name: "Weights from your labels" });
    await section.waitFor();
    const inForce = section.locator("[data-in-force]");
    expect(await inForce.innerText()).toBe(
      `Scoring with ${weightsName(DEFAULT_WEIGHTS.version)}, shipped with Warden.`,
    );

    // The fit's answer is held a moment, so its progress state is on screen to see.
    await page.route("**/trpc/scoreModels.propose**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await section.getByRole("button", { name: "Propose new weights from your labels" }).click();
    await section.getByRole("progressbar", { name: "Fitting on your labels" }).waitFor();
    expect(await section.getByRole("button", { name: "Fitting…" }).isDisabled()).toBe(true);

    const proposal = section.locator('[data-proposal="1"]');
    await proposal.waitFor({ timeout: 30_000 });
    expect(await proposal.innerText()).toContain(
      "fitted on 50 fraud and 50 legitimate screenings (100 labels)",
    );
    const caught = proposal.locator('[data-row="fraud-caught"] td');
    expect(await caught.count()).toBe(2);
    for (const cell of await caught.all())
      expect(await cell.innerText()).toMatch(/ of 50 \(\d+%\)$/);
    expect(await proposal.locator('[data-row="recent-blocked"] td').first().innerText()).toMatch(
      / of 100 /,
    );
    // Every label with a bot's user agent is fraud: that signal's weight goes up.
    const change = proposal.locator('[data-changes] [data-signal="bot_user_agent"] td');
    const [from, to] = await Promise.all([change.first().innerText(), change.last().innerText()]);
    expect(Number(to.replace("−", "-"))).toBeGreaterThan(Number(from.replace("−", "-")));
    // Nothing adopted yet: still the defaults, for the page and for the next screening.
    expect(await inForce.innerText()).toContain(weightsName(DEFAULT_WEIGHTS.version));
    const before = await nextBotPoints(1);
    await screenshot(
      page,
      kind === "embedded" ? "risk-score-proposal" : `risk-score-proposal-${kind}`,
    );
    // On a phone the tables scroll within themselves; the page does not scroll sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Every label came from the backend's one key: the proposal says so, beside its backtest.
    const warning = proposal.locator('[data-warnings] [data-warning="one_source"]');
    expect(await warning.innerText()).toMatch(
      /^Learnt mostly from one source\n+100 of the 100 labelled screenings these weights learnt from \(100%\) were labelled by one API key, "backend" \(wdn_sk_/,
    );

    await proposal.getByRole("button", { name: "Adopt version 1…" }).click();
    const confirm = proposal.locator("[data-confirm-adopt]");
    expect(await confirm.innerText()).toContain(
      "Score every screening with version 1 from the next one on?",
    );
    // Adopt stays disabled until the warning's box is ticked.
    const adopt = confirm.getByRole("button", { name: "Adopt", exact: true });
    const tick = confirm.getByRole("checkbox", { name: /^I trust the labels of this source/ });
    expect([await tick.isChecked(), await adopt.isDisabled()]).toEqual([false, true]);
    await tick.check();
    expect(await adopt.isDisabled()).toBe(false);
    await adopt.click();
    await section.locator('[data-history] [data-version="1"][data-status="adopted"]').waitFor();
    expect(await inForce.innerText()).toMatch(
      /^Scoring with your weights, version 1, fitted on your labels, adopted .+ by models-/,
    );
    expect(
      await section.locator('[data-history] [data-version="1"] [data-confirmed]').innerText(),
    ).toBe(", confirmed: learnt mostly from one source");
    expect(await section.locator("[data-proposal]").count()).toBe(0);
    expect(await nextBotPoints(2)).toBeGreaterThan(before ?? 0);

    await section.getByRole("button", { name: "Roll back…" }).click();
    await section
      .locator("[data-confirm-rollback]")
      .getByRole("button", { name: "Roll back" })
      .click();
    await section.locator('[data-history] [data-version="1"][data-status="retired"]').waitFor();
    expect(await inForce.innerText()).toBe(
      `Scoring with ${weightsName(DEFAULT_WEIGHTS.version)}, shipped with Warden.`,
    );
    expect(await nextBotPoints(3)).toBe(before);
  });
});
