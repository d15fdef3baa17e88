import { constants, gzipSync } from "node:zlib";
import { chromium, type Page, type Response, type Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import { CHROMIUM, launchBrowser, screenshot } from "../helpers/browser.ts";
import { TestClient } from "../helpers/http-client.ts";
import { linkIn } from "../helpers/smtp.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const SOCIAL_URL = "https://mastodon.social/@warden";
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 812 };
// What the landing page may cost in gzipped JavaScript, all of it (issue 9, item 5).
const LANDING_JS_BUDGET_BYTES = 80 * 1024;
const CONSOLE_CHUNKS =
  /\/assets\/(index|console-shell|dashboard-page|rules-page|templates-page|block-lists-page|settings-page|schemas|session)-/;
const FEATURE_TITLES = ["Smart Detection Rules", "Advanced Protection", "Plug and Play Templates"];

const isJoin = (url: URL) => url.pathname === "/trpc/waitlist.join";

/** Every script response the page gets, as Chromium received it. */
function recordScripts(page: Page): Response[] {
  const scripts: Response[] = [];
  page.on("response", (response) => {
    const isScript =
      response.request().resourceType() === "script" ||
      new URL(response.url()).pathname.endsWith(".js");
    if (isScript) scripts.push(response);
  });
  return scripts;
}

/** The gzipped size of those scripts: the server sends them as they are, gzip them as a proxy would. */
async function gzippedSize(scripts: Response[], level: number): Promise<number> {
  let total = 0;
  for (const url of new Set(scripts.map((response) => response.url()))) {
    const response = scripts.find((candidate) => candidate.url() === url);
    if (!response) continue;
    total += gzipSync(await response.body(), { level }).length;
  }
  return total;
}

/** True once React has hydrated the prerendered page (its fiber is on the root's element). */
const hydrated = (page: Page) =>
  page.evaluate(() =>
    Object.keys(document.querySelector("#root > .landing") ?? {}).some((key) =>
      key.startsWith("__reactFiber$"),
    ),
  );

describe("landing page and waitlist in Chromium", () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    t = await startTestApp("embedded", { env: { SOCIAL_URL } });
    browser = await launchBrowser(DESKTOP);
  });
  beforeEach(async () => {
    // Every browser request comes from 127.0.0.1: give each test a fresh rate-limit window.
    t.clock.advance(61_000);
    page = await browser.newPage();
    pageErrors = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });
  afterEach(async () => {
    await page?.close();
    // A hydration mismatch is reported as an uncaught (recoverable) error.
    expect(pageErrors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens / and waits until the prerendered page has hydrated (the button comes alive). */
  async function open(viewport = DESKTOP) {
    await page.setViewportSize(viewport);
    await page.goto(`${t.baseUrl}/`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expect.poll(() => submitButton().isEnabled()).toBe(true);
  }

  const form = () => page.getByRole("form", { name: "Join the waitlist" });
  const emailInput = () => page.getByRole("textbox", { name: "Email address" });
  const submitButton = () => form().getByRole("button");
  const alertText = () => page.locator("#waitlist-error").textContent();
  const statusText = () => page.getByRole("status").textContent();

  it("shows the spec's hero, benefits, cards, footer and header nav at 1280 px", async () => {
    const scripts = recordScripts(page);
    await open();

    const header = page.getByRole("banner");
    expect(await header.getByRole("link", { name: "Warden home" }).getAttribute("href")).toBe("/");
    const nav = header.getByRole("navigation", { name: "Account" });
    expect(await nav.isVisible()).toBe(true);
    expect(await nav.getByRole("link", { name: "Log In" }).getAttribute("href")).toBe("/login");
    expect(await nav.getByRole("link", { name: "Sign Up" }).getAttribute("href")).toBe("/signup");

    const hero = page.locator(".landing-hero");
    expect(await hero.locator("h1 span").allTextContents()).toEqual([
      "A single Toolkit",
      "To stop all abuses",
    ]);
    expect(await hero.getByRole("heading", { level: 2 }).textContent()).toBe(
      "Fight chargebacks and disputes before they occur",
    );
    expect(
      await hero.getByRole("list", { name: "Benefits" }).locator("li").allTextContents(),
    ).toEqual([
      "Blocks fake signups, promo and affiliation fraud, refund abuse and card testing",
      "About 5 minutes to integrate",
      "Real-time dashboards",
    ]);
    const cta = hero.locator("a.landing-cta");
    expect(await cta.textContent()).toBe("Sign Up");
    expect(await cta.getAttribute("href")).toBe("/signup");
    const ctaBox = await cta.boundingBox();
    const center = (ctaBox?.x ?? 0) + (ctaBox?.width ?? 0) / 2;
    const pageWidth = await page.evaluate(() => document.documentElement.clientWidth);
    expect(Math.abs(center - pageWidth / 2)).toBeLessThan(2);

    const cards = page.getByRole("article");
    expect(await cards.count()).toBe(3);
    const cardText = async (title: string) =>
      page.getByRole("article", { name: title }).locator("li").allTextContents();
    expect(await cardText("Smart Detection Rules")).toEqual([
      "one trial per device/IP/email",
      "block disposable or low-reputation emails",
      "scraping and throttling detection",
      "promo/referral abuse detection",
    ]);
    expect(await cardText("Advanced Protection")).toEqual([
      "behavioral entropy and bot detection",
      "card/device fingerprinting",
      "promo and refund abuse analytics",
      "velocity and anomaly detection",
    ]);
    expect(await cardText("Plug and Play Templates")).toEqual([
      "One Human One Trial",
      "Fake Viral Growth Prevention",
      "Refund Abuser Flag",
      "Stealth Scraper Deterrent",
    ]);

    const social = page.getByRole("contentinfo").getByRole("link", { name: /project news/ });
    expect(await social.getAttribute("href")).toBe(SOCIAL_URL);

    expect(await page.title()).toContain("Warden");
    const meta = (selector: string) => page.locator(selector).getAttribute("content");
    expect(await meta('meta[name="description"]')).toMatch(/fake signups/);
    expect(await meta('meta[property="og:title"]')).toContain("A single Toolkit");
    expect(await meta('meta[property="og:description"]')).toBeTruthy();
    expect(await meta('meta[property="og:image"]')).toBeTruthy();

    // The landing page's own bundle: none of the console's chunks, and all of it within budget.
    await page.waitForLoadState("networkidle");
    const urls = scripts.map((response) => response.url());
    expect(urls.length).toBeGreaterThan(1);
    expect(urls.filter((url) => CONSOLE_CHUNKS.test(url))).toEqual([]);
    const gzipped = await gzippedSize(scripts, constants.Z_DEFAULT_COMPRESSION);
    const gzippedBest = await gzippedSize(scripts, 9);
    console.info(
      `landing page JavaScript: ${new Set(urls).size} files, ${(gzipped / 1024).toFixed(1)} kB gzipped (${(gzippedBest / 1024).toFixed(1)} kB at level 9)`,
    );
    expect(gzipped).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);

    await screenshot(page, "landing-1280");
  });

  it("serves / as prerendered HTML: hero, feature cards and waitlist form, no inline script", async () => {
    const response = await fetch(`${t.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain("<span>A single Toolkit</span>");
    expect(root).toContain("To stop all abuses</span>");
    for (const title of FEATURE_TITLES) expect(root).toContain(`>${title}</h3>`);
    // HTML attribute names are case-insensitive (React writes some in camelCase).
    expect(root).toMatch(/<form [^>]*novalidate=""[^>]*aria-label="Join the waitlist"/i);
    expect(root).toMatch(/<input [^>]*id="waitlist-email"[^>]*type="email"/);
    expect(root).toContain(`placeholder="${MESSAGES.waitlistPlaceholder}"`);
    // Under the CSP (script-src 'self'), every script is a file.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\bsrc="\/assets\//);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
  });

  it("shows the hero, the feature cards and the waitlist form with JavaScript disabled", async () => {
    const noScript = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
    });
    try {
      const context = await noScript.newContext({ javaScriptEnabled: false, viewport: DESKTOP });
      const bare = await context.newPage();
      const requested: string[] = [];
      bare.on("request", (request) => requested.push(request.url()));
      await bare.goto(`${t.baseUrl}/`);
      const h1 = bare.getByRole("heading", { level: 1 });
      expect(await h1.isVisible()).toBe(true);
      expect(await h1.locator("span").allTextContents()).toEqual([
        "A single Toolkit",
        "To stop all abuses",
      ]);
      // The stylesheet came with the HTML: the page is laid out, not raw.
      expect(await h1.evaluate((node) => getComputedStyle(node).fontWeight)).toBe("800");
      expect(await bare.getByRole("article").count()).toBe(3);
      for (const title of FEATURE_TITLES) {
        expect(await bare.getByRole("article", { name: title }).isVisible()).toBe(true);
      }
      const waitlist = bare.getByRole("form", { name: "Join the waitlist" });
      expect(await waitlist.isVisible()).toBe(true);
      const input = bare.getByRole("textbox", { name: "Email address" });
      expect(await input.isVisible()).toBe(true);
      expect(await input.getAttribute("placeholder")).toBe(MESSAGES.waitlistPlaceholder);
      expect(await waitlist.getByText(MESSAGES.waitlistNote).isVisible()).toBe(true);
      expect(await waitlist.getByRole("button").textContent()).toBe("Join the waitlist");
      expect(await bare.getByRole("link", { name: "Sign Up" }).first().getAttribute("href")).toBe(
        "/signup",
      );
      // Nothing ran: no API call was made.
      expect(requested.filter((url) => new URL(url).pathname.startsWith("/trpc/"))).toEqual([]);
      await screenshot(bare, "landing-1280-no-javascript");
    } finally {
      await noScript.close();
    }
  });

  it("hydrates the prerendered page in place, with no mismatch", async () => {
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") {
        consoleErrors.push(message.text());
      }
    });
    // Hold every script until the prerendered nodes are tagged: hydration must keep them.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js"),
      async (route: Route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${t.baseUrl}/`, { waitUntil: "commit" });
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await hydrated(page)).toBe(false);
    expect(await submitButton().isDisabled()).toBe(true);
    await page.evaluate(() => {
      for (const node of document.querySelectorAll("h1, form, article, input")) {
        (node as unknown as { prerendered: boolean }).prerendered = true;
      }
    });
    // A visitor may type before the page is live; the text is kept and sent.
    await emailInput().fill("early.typist@example.com");

    release();
    await expect.poll(() => hydrated(page)).toBe(true);
    await expect.poll(() => submitButton().isEnabled()).toBe(true);
    const kept = await page.evaluate(() =>
      [...document.querySelectorAll("h1, form, article, input")].map(
        (node) => (node as unknown as { prerendered?: boolean }).prerendered === true,
      ),
    );
    expect(kept.length).toBeGreaterThanOrEqual(6);
    expect(kept.every(Boolean)).toBe(true);
    expect(await emailInput().inputValue()).toBe("early.typist@example.com");
    await submitButton().click();
    await expect.poll(statusText).toBe(MESSAGES.waitlistJoined);
    await page.waitForLoadState("networkidle");
    expect(consoleErrors).toEqual([]);
    expect(
      await t.prisma.waitlistEntry.count({ where: { email: "early.typist@example.com" } }),
    ).toBe(1);
  });

  it("still shows the landing page inside the console app on a client-side visit to /", async () => {
    await page.goto(`${t.baseUrl}/login`);
    await page.getByRole("link", { name: "Warden home" }).click();
    await page.waitForURL(`${t.baseUrl}/`);
    // The login page has an h1 too, so the heading alone does not say the landing page is drawn.
    await expect.poll(() => page.getByRole("article").count()).toBe(3);
    await page
      .getByRole("navigation", { name: "Account" })
      .getByRole("link", { name: "Log In" })
      .click();
    await page.waitForURL(`${t.baseUrl}/login`);
    await page.goBack();
    await emailInput().fill("from-the-console-app@example.com");
    await submitButton().click();
    await expect.poll(statusText).toBe(MESSAGES.waitlistJoined);
  });

  it("hides the header nav at 375 px and fits the screen without sideways scrolling", async () => {
    await open(MOBILE);
    expect(await page.getByRole("navigation", { name: "Account" }).isHidden()).toBe(true);
    expect(
      await page.getByRole("banner").getByRole("link", { name: "Warden home" }).isVisible(),
    ).toBe(true);
    expect(await page.locator("a.landing-cta").isVisible()).toBe(true);
    expect(await emailInput().isVisible()).toBe(true);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, "landing-375");
  });

  it("starts idle: labelled input with the spec's placeholder and note, no message", async () => {
    await open();
    expect(await emailInput().getAttribute("placeholder")).toBe(MESSAGES.waitlistPlaceholder);
    expect(await emailInput().isEnabled()).toBe(true);
    expect(await submitButton().textContent()).toBe("Join the waitlist");
    expect(await submitButton().isEnabled()).toBe(true);
    expect(await form().getByText(MESSAGES.waitlistNote).isVisible()).toBe(true);
    expect(await emailInput().getAttribute("aria-describedby")).toContain("waitlist-note");
    expect(await alertText()).toBe("");
    expect(await statusText()).toBe("");
  });

  it("refuses an invalid or empty email in the browser, without a request, until corrected", async () => {
    const joins: string[] = [];
    page.on("request", (request) => {
      if (isJoin(new URL(request.url()))) joins.push(request.url());
    });
    await open(MOBILE);
    await emailInput().fill("owner@example");
    await emailInput().press("Enter");
    await expect.poll(alertText).toBe(MESSAGES.waitlistInvalidEmail);
    expect(await emailInput().getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "landing-375-waitlist-invalid");

    await emailInput().fill("");
    await expect.poll(alertText).toBe("");
    await submitButton().click();
    await expect.poll(alertText).toBe(MESSAGES.waitlistInvalidEmail);

    await emailInput().fill("own er@example.com");
    await submitButton().click();
    await expect.poll(alertText).toBe(MESSAGES.waitlistInvalidEmail);
    expect(joins).toEqual([]);
    expect(await t.prisma.waitlistEntry.count({ where: { email: "own er@example.com" } })).toBe(0);
  });

  it("shows Submitting... with the inputs disabled, then thanks the visitor and hides the form", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(isJoin, async (route: Route) => {
      await held;
      await route.continue();
    });
    await open();
    await emailInput().fill("  Early.Bird@Example.COM ");
    await submitButton().click();

    await expect.poll(() => submitButton().textContent()).toBe(MESSAGES.waitlistSubmitting);
    expect(await submitButton().isDisabled()).toBe(true);
    expect(await emailInput().isDisabled()).toBe(true);
    expect(await form().getAttribute("aria-busy")).toBe("true");

    release();
    await expect.poll(statusText).toBe(MESSAGES.waitlistJoined);
    expect(await form().count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
    const row = await t.prisma.waitlistEntry.findUnique({
      where: { email: "early.bird@example.com" },
    });
    expect(row).not.toBeNull();
    await screenshot(page, "landing-waitlist-joined");
  });

  it("tells a visitor who is already listed, and keeps the form", async () => {
    await t.prisma.waitlistEntry.create({ data: { email: "listed@example.com" } });
    await open();
    await emailInput().fill("Listed@Example.com");
    await submitButton().click();
    await expect.poll(statusText).toBe(MESSAGES.waitlistAlreadyListed);
    expect(await alertText()).toBe("");
    expect(await form().isVisible()).toBe(true);
    expect(await emailInput().isEnabled()).toBe(true);
    expect(await t.prisma.waitlistEntry.count({ where: { email: "listed@example.com" } })).toBe(1);
  });

  it("shows the error message when the server fails, and lets the visitor try again", async () => {
    await page.route(isJoin, (route: Route) =>
      route.fulfill({ status: 500, contentType: "text/plain", body: "upstream exploded" }),
    );
    await open();
    await emailInput().fill("unlucky@example.com");
    await submitButton().click();
    await expect.poll(alertText).toBe(MESSAGES.waitlistFailed);
    expect(await form().isVisible()).toBe(true);
    expect(await emailInput().isEnabled()).toBe(true);
    expect(await submitButton().textContent()).toBe("Join the waitlist");

    await page.unroute(isJoin);
    await submitButton().click();
    await expect.poll(statusText).toBe(MESSAGES.waitlistJoined);
    expect(await alertText()).toBe("");
  });

  it("explains the per-IP rate limit instead of failing", async () => {
    // The test process shares the browser's address (127.0.0.1), so it can use up the budget.
    const api = new TestClient(t.baseUrl);
    for (let i = 0; i < 10; i++) {
      expect((await api.mutate("waitlist.join", { email: `burst-${i}@example.com` })).ok).toBe(
        true,
      );
    }
    await open();
    await emailInput().fill("patient@example.com");
    await submitButton().click();
    await expect.poll(alertText).toBe(MESSAGES.waitlistTooManyRequests);
    expect(await t.prisma.waitlistEntry.count({ where: { email: "patient@example.com" } })).toBe(0);
  });

  it("sends a signed-in visitor to /homepage/dashboard", async () => {
    const email = "landing-owner@example.com";
    const password = "landing password 1";
    const api = new TestClient(t.baseUrl);
    expect((await api.mutate("auth.signup", { email, password })).ok).toBe(true);
    const link = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
    const confirmed = await api.mutate("auth.confirmEmail", {
      tokenHash: link.searchParams.get("tokenHash"),
      email: link.searchParams.get("email"),
    });
    expect(confirmed.ok).toBe(true);

    await page.goto(`${t.baseUrl}/login`);
    const login = page.getByRole("form", { name: "Log in" });
    await login.getByLabel("Email").fill(email);
    await login.getByLabel("Password").fill(password);
    await login.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);

    // The server answers / with a redirect for a session...
    await page.goto(`${t.baseUrl}/`);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    expect(await page.locator(".landing").count()).toBe(0);

    // ...and the page's own script redirects too, if the HTML came without the session
    // (a cached copy): here the anonymous page, served to the signed-in browser.
    const anonymous = await fetch(`${t.baseUrl}/`);
    expect(anonymous.status).toBe(200);
    const body = await anonymous.text();
    await page.route(`${t.baseUrl}/`, (route: Route) =>
      route.fulfill({
        status: 200,
        headers: Object.fromEntries(anonymous.headers),
        body,
      }),
    );
    await page.goto(`${t.baseUrl}/`);
    await page.waitForURL(`${t.baseUrl}/homepage/dashboard`);
    expect(await page.locator(".landing").count()).toBe(0);
    await page.unroute(`${t.baseUrl}/`);
    await browser.context.clearCookies();
  });
});
