/**
 * warden.js in real Chromium, loaded by a merchant's page on another origin: a person-like
 * fill is allowed with its signals accepted, an instant scripted submit and an automated
 * browser are reviewed by rule_entropy, the ES module works the same (and a fresh profile on
 * the same machine gets the same device id), and the script stays within 15 KB gzipped.
 */
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser.ts";
import { allowOrigins, publishableKeyOf } from "../helpers/collector.ts";
import { startMerchantSite } from "../helpers/merchant-site.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

type Answer = {
  decision: string;
  signals?: string;
  reasons: { rule: string; message: string; observed: unknown }[];
};

describe("browser collector in Chromium", () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof startMerchantSite>>;
  let person: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    t = await startTestApp("embedded");
    const merchant = await signedInMerchant(t, "collector-e2e@example.com");
    const backend = await backendOf(t, merchant);
    const pk = (await publishableKeyOf(merchant)).key;
    site = await startMerchantSite({
      wardenUrl: t.baseUrl,
      publishableKey: pk,
      secretKey: backend.key,
    });
    await allowOrigins(merchant, [site.origin]);
    await turnOn(
      merchant,
      "rule_entropy",
      "rule_referrer_mismatch",
      "rule_device_fingerprint_reuse",
    );
    // Without this flag Chromium under automation says navigator.webdriver = true.
    person = await launchBrowser(undefined, ["--disable-blink-features=AutomationControlled"]);
  });
  afterAll(async () => {
    await person?.close();
    await site?.close();
    await t?.close();
  });

  async function answerOn(page: Page): Promise<Answer> {
    await page.locator('#result[data-done="true"]').waitFor();
    expect(await page.locator("#result").getAttribute("data-error")).toBeNull();
    return JSON.parse(await page.locator("#result").innerText()) as Answer;
  }

  async function fillLikeAPerson(page: Page, email: string) {
    await page.mouse.move(20, 20);
    const box = await page.getByLabel("Email").boundingBox();
    if (!box) throw new Error("no email field");
    await page.mouse.move(box.x + 10, box.y + 5, { steps: 12 });
    await page.mouse.click(box.x + 10, box.y + 5);
    for (const [i, char] of [...email].entries()) {
      await page.keyboard.type(char);
      await page.waitForTimeout(40 + ((i * 37) % 90));
    }
    await page.keyboard.press("Tab");
    for (const char of "s3cret-Passw0rd") {
      await page.keyboard.type(char);
      await page.waitForTimeout(70);
    }
    await page.waitForTimeout(300);
    const button = await page.getByRole("button", { name: "Sign up" }).boundingBox();
    if (!button) throw new Error("no button");
    await page.mouse.move(button.x + 5, button.y + 5, { steps: 8 });
    await page.mouse.click(button.x + 5, button.y + 5);
  }

  it("serves warden.js to other origins within 15 KB gzipped", async () => {
    for (const file of ["warden.js", "warden.mjs"]) {
      const response = await fetch(`${t.baseUrl}/sdk/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/javascript/);
      expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const gzipped = gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
      expect(gzipped, `${file} gzipped`).toBeLessThanOrEqual(15 * 1024);
    }
  });

  it("allows a person-like signup, with the signals accepted", async () => {
    const page = await person.newPage();
    await page.goto(`${site.origin}/signup`);
    await fillLikeAPerson(page, "jane.doe@example.com");
    const answer = await answerOn(page);
    expect(answer).toMatchObject({ decision: "allow", signals: "accepted", reasons: [] });
    const stored = await t.prisma.screening.findFirstOrThrow({
      where: { email: "jane.doe@example.com" },
    });
    expect(stored.signals).toMatchObject({
      origin: site.origin,
      url: `${site.origin}/signup`,
      webdriver: false,
      device_id: expect.stringMatching(/^wd1_[0-9a-f]{28}$/),
      behavior: { paste_count: 0 },
    });
    const behavior = (stored.signals as { behavior: Record<string, number> }).behavior;
    expect(behavior.key_events).toBeGreaterThanOrEqual(30);
    expect(behavior.pointer_events).toBeGreaterThan(5);
    expect(behavior.time_to_submit_ms).toBeGreaterThan(1500);
    expect(behavior.key_interval_sd_ms).toBeGreaterThan(0);
    await page.close();
  });

  it("reviews an instant scripted submit with rule_entropy", async () => {
    const page = await person.newPage();
    await page.goto(`${site.origin}/signup`);
    await page.evaluate(() => {
      const form = document.getElementById("signup") as HTMLFormElement;
      (form.elements.namedItem("email") as HTMLInputElement).value = "bot1@example.com";
      (form.elements.namedItem("password") as HTMLInputElement).value = "x".repeat(12);
      form.requestSubmit();
    });
    const answer = await answerOn(page);
    expect(answer).toMatchObject({
      decision: "review",
      signals: "accepted",
      reasons: [
        {
          rule: "rule_entropy",
          message: "the form was submitted without a single pointer or key event",
        },
      ],
    });
    await page.close();
  });

  it("reviews a fast fill-and-click as too fast", async () => {
    const page = await person.newPage();
    await page.goto(`${site.origin}/signup`);
    await page.getByLabel("Email").fill("bot2@example.com");
    await page.getByLabel("Password").fill("x".repeat(12));
    await page.getByRole("button", { name: "Sign up" }).click();
    const answer = await answerOn(page);
    expect(answer.decision).toBe("review");
    expect(answer.reasons[0]?.message).toMatch(
      /^the form was submitted \d+ ms after it was first touched \(limit 1500 ms\)$/,
    );
    await page.close();
  });

  it("rejects token() with an Error when Warden cannot be reached or refuses the page", async () => {
    const page = await person.newPage();
    await page.goto(`${site.origin}/signup`);
    const outcome = (url: string, key: string) =>
      page.evaluate(
        async ({ url, key }) => {
          const w = (
            window as unknown as {
              Warden: typeof import("../../client/collector/warden.ts").default;
            }
          ).Warden;
          w.init({ key, url });
          try {
            return `resolved ${await w.token()}`;
          } catch (error) {
            return `${error instanceof Error} ${(error as Error).message}`;
          }
        },
        { url, key },
      );
    expect(await outcome("http://127.0.0.1:9", "wdn_pk_whatever")).toMatch(
      /^true Warden\.token: Warden could not be reached/,
    );
    // An unknown key's 401 carries CORS too: the page reads why.
    expect(await outcome(t.baseUrl, "wdn_pk_unknownunknownunknownunknown")).toBe(
      "true Warden.token: collect answered 401: key: unknown or revoked API key.",
    );
    expect(
      await page.evaluate(() => {
        try {
          (window as unknown as { Warden: { init(o: object): void } }).Warden.init({
            key: "wdn_sk_secret",
            url: "http://x",
          });
          return "accepted";
        } catch (error) {
          return (error as Error).message;
        }
      }),
    ).toContain("publishable key");
    await page.close();
  });

  it("reviews a browser that reports automation, through the ES module, on the same device id", async () => {
    const automated = await launchBrowser();
    try {
      const page = await automated.newPage();
      await page.goto(`${site.origin}/signup-module`);
      await page.waitForFunction(
        () => (window as unknown as { moduleReady?: boolean }).moduleReady === true,
      );
      expect(await page.evaluate(() => navigator.webdriver)).toBe(true);
      await fillLikeAPerson(page, "robot@example.com");
      const answer = await answerOn(page);
      expect(answer.signals).toBe("accepted");
      expect(answer.reasons[0]).toMatchObject({
        rule: "rule_entropy",
        message: "the browser reports it is automated (navigator.webdriver)",
      });
      // A fresh profile (no storage) on the same machine has the same device id: the fourth
      // account on it, after the three signups above, is device reuse.
      expect(answer.reasons[1]).toMatchObject({
        rule: "rule_device_fingerprint_reuse",
        observed: 4,
        limit: 3,
      });
      expect(answer.decision).toBe("block");
    } finally {
      await automated.close();
    }
  });
});
