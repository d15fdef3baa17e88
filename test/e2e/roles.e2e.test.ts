/**
 * What a role may not change, the console does not offer: in real Chromium, a viewer of the
 * owner's account sees the Rules page with its switches off and a note saying why, and the
 * Review queue with its decision and label buttons off; an analyst may decide the same review.
 * The browser pass of the access sweep: as owner, admin, analyst and viewer of one account
 * (demo data loaded, a screening in review), every console page loads without a 403, the
 * controls the role matrix forbids are off or absent (and those it allows are on), and for a
 * viewer and an analyst every enabled control on every page is pressed (confirm dialogs
 * accepted): none answers 403. (The server refuses either way: test/access-sweep.int.test.ts.)
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { can, type Permission, type Role } from "../../shared/team/roles.ts";
import { launchBrowser, signInAs } from "../helpers/browser.ts";
import { CONSOLE_PAGES } from "../helpers/console-browser.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe("the console as each role, in Chromium", () => {
  let t: TestApp;
  let owner: Merchant;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    t = await startTestApp("embedded");
    owner = await signedInMerchant(t, "owner@roles.example");
    await turnOn(owner, "rule_scraping");
    const backend = await backendOf(t, owner);
    const review = await backend.decide({
      type: "request",
      user_agent: "python-requests/2.31",
      email: "bot@roles.example",
      ip: "198.51.100.40",
    });
    expect(review.decision).toBe("review");
    const demo = await owner.browser.mutate("stripe.loadDemo");
    expect(demo, "demo data loaded").toMatchObject({ ok: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page signed in as a new member of the owner's account with `role`. */
  async function pageAs(role: Role, name: string = role): Promise<Page> {
    const person = await signedInMerchant(t, `${name}@roles.example`);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: person.email } });
    await t.prisma.membership.create({
      data: { accountId: owner.accountId, userId: user.id, role },
    });
    const { token } = await t.app.services.sessions.create(user.id, owner.accountId);
    await signInAs(browser.context, t.baseUrl, token);
    return browser.newPage();
  }

  it("shows a viewer the rules and the review queue, with nothing they could change", async () => {
    const page = await pageAs("viewer");
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByText("You are a viewer in this account").first().waitFor();
    const switches = page.getByRole("switch");
    await switches.first().waitFor();
    expect(await switches.count()).toBeGreaterThan(0);
    for (const item of await switches.all()) expect(await item.isDisabled()).toBe(true);

    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator("li.rv-card").first();
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Deny" }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Label fraud" }).isDisabled()).toBe(true);
    await page.close();
  });

  it("lets an analyst decide the same review, and keeps the rules out of their hands", async () => {
    const page = await pageAs("analyst");
    await page.goto(`${t.baseUrl}/homepage/review`);
    const card = page.locator("li.rv-card").first();
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Approve" }).isDisabled()).toBe(false);
    await page.goto(`${t.baseUrl}/homepage/rules`);
    await page.getByText("You are an analyst in this account").waitFor();
    await page.close();
  });

  /** Every page a member may open: the navigation's, and those reached from Settings and More. */
  const PAGES = [...CONSOLE_PAGES, "risk-score", "alerts", "team", "audit", "data-requests"];

  /**
   * Controls the matrix gives to some roles only: each is off (or absent) for a role without
   * `need`, and on for one with it, which also proves the locator finds it.
   */
  const GATED: {
    page: string;
    need: Permission;
    find: (page: Page) => ReturnType<Page["locator"]>;
  }[] = [
    { page: "dashboard", need: "configure", find: (p) => button(p, "Remove demo data…") },
    { page: "rules", need: "configure", find: (p) => p.locator("main").getByRole("switch") },
    { page: "rules", need: "review", find: (p) => button(p, "Test on history") },
    {
      page: "block-lists",
      need: "configure",
      find: (p) => p.getByRole("textbox", { name: "Custom domain" }),
    },
    {
      page: "block-lists",
      need: "review",
      find: (p) => p.getByRole("textbox", { name: "Value", exact: true }),
    },
    { page: "review", need: "review", find: (p) => button(p, "Approve") },
    { page: "review", need: "review", find: (p) => button(p, "Label fraud") },
    { page: "settings", need: "configure", find: (p) => button(p, "Export configuration") },
    { page: "settings", need: "own", find: (p) => button(p, "Save retention") },
    { page: "settings", need: "own", find: (p) => button(p, "Delete this account…") },
    { page: "alerts", need: "configure", find: (p) => button(p, "Send a test") },
    { page: "alerts", need: "configure", find: (p) => button(p, "Add alert") },
    { page: "team", need: "team", find: (p) => button(p, "Send invitation") },
    {
      page: "team",
      need: "own",
      find: (p) => p.getByRole("checkbox", { name: "Require two-factor sign-in for every member" }),
    },
  ];
  const button = (page: Page, name: string) =>
    page.locator("main").getByRole("button", { name, exact: true });

  /** Presses nothing that would end the test's own session or membership. */
  const NEVER_PRESS = /leave|log off|delete|sign out|transfer/i;

  /**
   * Records every answer of the console's API that refuses for lack of permission: a 403, or
   * a FORBIDDEN inside a tRPC batch answered 207; and counts requests still under way.
   */
  function watch(page: Page) {
    const refused: string[] = [];
    const reading: Promise<void>[] = [];
    // tRPC calls only: the live pages' event stream stays open for good.
    let inFlight = 0;
    const isCall = (url: string) => new URL(url).pathname.startsWith("/trpc/");
    page.on("request", (request) => {
      if (isCall(request.url())) inFlight++;
    });
    const done = (request: { url(): string }) => {
      if (isCall(request.url())) inFlight--;
    };
    page.on("requestfinished", done);
    page.on("requestfailed", done);
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (!/^\/(trpc|api)\//.test(url.pathname)) return;
      const what = `${response.request().method()} ${url.pathname}`;
      if (response.status() === 403) refused.push(what);
      else if (response.status() === 207) {
        reading.push(
          response.text().then(
            (text) => {
              if (text.includes("FORBIDDEN")) refused.push(what);
            },
            () => undefined,
          ),
        );
      }
    });
    // A confirm() is accepted: what it guards is sent, and a refusal would show.
    page.on("dialog", (dialog) => void dialog.accept());
    return {
      refused: async () => {
        await Promise.all(reading);
        return refused;
      },
      /** Until no request has been under way for a moment (at most 3 s). */
      settled: async () => {
        const until = Date.now() + 3_000;
        let quiet = 0;
        while (Date.now() < until && quiet < 3) {
          quiet = inFlight <= 0 ? quiet + 1 : 0;
          await page.waitForTimeout(50);
        }
      },
    };
  }

  async function open(page: Page, path: string) {
    await page.goto(`${t.baseUrl}/homepage/${path}`);
    await page.locator("main h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    if (path === "review") await page.locator("li.rv-card").first().waitFor();
    if (path === "dashboard") await page.locator("[data-demo-bar]").waitFor();
  }

  /**
   * Presses each kind of enabled control in the page's main part once (buttons, switches,
   * checkboxes; a row's open button once, not once a row), again after each press since a
   * press may reveal more (a confirm step), at most 25 on a page.
   */
  async function pressEverything(page: Page, path: string, settled: () => Promise<void>) {
    const pressed = new Set<string>();
    for (let round = 0; round < 25; round++) {
      const next = await page
        .locator("main :is(button, input[type=checkbox], input[type=radio], summary)")
        .evaluateAll(
          (elements, [done, never]) => {
            for (const el of elements) el.removeAttribute("data-sweep-next");
            const skip = new RegExp(never as string, "i");
            for (const el of elements) {
              if ((el as HTMLButtonElement).disabled || el.closest("fieldset:disabled")) continue;
              if (el.getClientRects().length === 0) continue;
              // A list's rows offer the same controls: the first row (and its detail) will do.
              const row = el.closest("tbody > tr, ul > li, ol > li");
              if (row && Array.prototype.indexOf.call(row.parentElement?.children, row) > 1) {
                continue;
              }
              const text = (el.getAttribute("aria-label") ?? (el as HTMLElement).innerText)
                .replace(/\s+/g, " ")
                .replace(/\d+/g, "#")
                .trim();
              const key = `${el.tagName}:${el.className}:${text}`;
              if ((done as string[]).includes(key) || skip.test(text)) continue;
              el.setAttribute("data-sweep-next", "");
              return key;
            }
            return null;
          },
          [[...pressed], NEVER_PRESS.source] as const,
        );
      if (!next) return;
      pressed.add(next);
      await page
        .locator("[data-sweep-next]")
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await settled();
      if (new URL(page.url()).pathname !== `/homepage/${path}`) await open(page, path);
    }
  }

  it("as each role: no page answers 403, forbidden controls are off, allowed ones on", {
    timeout: 300_000,
  }, async () => {
    const refusals: Record<string, string[]> = {};
    for (const role of ["owner", "admin", "viewer", "analyst"] as const) {
      let page: Page;
      if (role === "owner") {
        const { token } = await t.app.services.sessions.create(
          (await t.prisma.user.findUniqueOrThrow({ where: { email: owner.email } })).id,
          owner.accountId,
        );
        await signInAs(browser.context, t.baseUrl, token);
        page = await browser.newPage();
      } else {
        page = await pageAs(role, `sweep-${role}`);
      }
      const watched = watch(page);
      for (const path of PAGES) {
        await open(page, path);
        for (const gated of GATED.filter((item) => item.page === path)) {
          const controls = await gated.find(page).all();
          const what = `${role} on ${path}: ${gated.need} control ${gated.find(page)}`;
          if (can(role, gated.need)) {
            expect(controls.length, `${what} shown`).toBeGreaterThan(0);
            // One of them at least (a label already given is off for everyone).
            const on = await Promise.all(controls.map((control) => control.isEnabled()));
            expect(on, `${what} on`).toContain(true);
          } else {
            for (const control of controls) {
              expect(await control.isDisabled(), what).toBe(true);
              // Off with the reason: its title, a described-by note, a note beside it, or the
              // read-only section's note above it.
              const reason = await control.evaluate((el) =>
                Boolean(
                  el.getAttribute("title") ||
                    el.getAttribute("aria-describedby") ||
                    el.parentElement?.querySelector("[data-role-note]") ||
                    el.closest("fieldset.read-only, fieldset[title]"),
                ),
              );
              expect(reason, `${what}: says why`).toBe(true);
            }
          }
        }
        // Press what a viewer and an analyst are offered; an owner's and an admin's every
        // control is theirs to use (and some would delete what the next role needs).
        if (role === "viewer" || role === "analyst") {
          await pressEverything(page, path, watched.settled);
        }
      }
      await watched.settled();
      refusals[role] = await watched.refused();
      await page.close();
    }
    expect(refusals).toEqual({ owner: [], admin: [], viewer: [], analyst: [] });
  });
});
