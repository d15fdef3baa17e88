/**
 * The example merchant app (examples/merchant-app) in real Chromium, with warden.js and the
 * typed client, against a real Warden. Each scenario is its own merchant (own keys, rules and
 * counts) with its own copy of the app, as issue 12 lists them.
 */
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchantApp } from "../../examples/merchant-app/server.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { allowOrigins } from "../helpers/collector.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

type Browser = Awaited<ReturnType<typeof launchBrowser>>;

describe("example merchant app in Chromium", () => {
  let t: TestApp;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    t = await startTestApp("embedded");
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await t?.close();
  });

  /** A merchant set up by `configure`, its app listening, and a fresh browser profile. */
  async function shop(name: string, configure: (merchant: Merchant) => Promise<void>) {
    const merchant = await signedInMerchant(t, `${name}@example.com`);
    await configure(merchant);
    const secretKey = (await backendOf(t, merchant)).key;
    const publishable = await merchant.api.json<{ key: string }>("/api/api-keys", {
      body: { name: "signup page", kind: "publishable" },
    });
    const app = createMerchantApp({
      wardenUrl: t.baseUrl,
      secretKey,
      publishableKey: publishable.body.key,
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => app.close(resolve)));
    const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
    // warden.js may collect only from the merchant's allowed origins.
    await allowOrigins(merchant, [new URL(url).origin]);
    // Chromium under automation says navigator.webdriver = true, which rule_entropy reviews on
    // its own; this flag makes it a plain browser, so behaviour alone tells person from script.
    const browser = await launchBrowser(undefined, [
      "--disable-blink-features=AutomationControlled",
    ]);
    closers.push(() => browser.close());
    return { merchant, url, browser };
  }

  it("lets a person-like signup and trial through, reviews a second account's trial from the same browser and blocks a third (One Human One Trial)", async () => {
    const { url, browser } = await shop("trials", (merchant) =>
      templatesOn(merchant, "template_one_human_one_trial"),
    );
    const page = await openShop(browser, url);
    await signUpLikeAPerson(page, "maria.lopez@example.com");
    expect(await result(page)).toEqual({ step: "Sign up", decision: "allow", rules: [] });
    // warden.js did its part: the backend passed its token and Warden used it.
    expect(await signalsOf(page)).toBe("accepted");
    await clickLikeAPerson(page, "#trial-button");
    await waitForStep(page, "Start trial");
    expect(await result(page)).toEqual({ step: "Start trial", decision: "allow", rules: [] });

    // Same browser, another account: a family shares a laptop, so its trial is reviewed.
    const again = await openShop(browser, url);
    await signUpLikeAPerson(again, "maria.lopez.2@example.com");
    expect((await result(again)).decision).toBe("allow");
    await clickLikeAPerson(again, "#trial-button");
    await waitForStep(again, "Start trial");
    const reviewed = await result(again);
    expect(reviewed.decision).toBe("review");
    expect(reviewed.rules).toContain("rule_ip");

    // A third account's trial on the same browser: blocked.
    const third = await openShop(browser, url);
    await signUpLikeAPerson(third, "maria.lopez.3@example.com");
    await clickLikeAPerson(third, "#trial-button");
    await waitForStep(third, "Start trial");
    const blocked = await result(third);
    await screenshot(third, "merchant-app-second-trial");
    expect(blocked.decision).toBe("block");
    expect(blocked.rules).toContain("rule_ip");
  });

  it("reviews an instant scripted submit by rule_entropy", async () => {
    const { url, browser } = await shop("scripted", (merchant) => turnOn(merchant, "rule_entropy"));
    // A person first, so the rule is shown to tell the two apart, on the same email style.
    const person = await openShop(browser, url);
    await signUpLikeAPerson(person, "tom.baker@example.com");
    expect(await result(person)).toEqual({ step: "Sign up", decision: "allow", rules: [] });

    const bot = await openShop(browser, url);
    // Values set and the form submitted in the same tick: no typing, no pointer.
    await bot.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>("#signup");
      if (!form) throw new Error("no form");
      (form.elements.namedItem("email") as HTMLInputElement).value = "tom.baker.2@example.com";
      (form.elements.namedItem("password") as HTMLInputElement).value = "hunter2hunter2";
      form.requestSubmit();
    });
    await waitForStep(bot, "Sign up");
    const reviewed = await result(bot);
    await screenshot(bot, "merchant-app-scripted-submit");
    expect(reviewed.decision).toBe("review");
    expect(reviewed.rules).toEqual(["rule_entropy"]);
    expect(await signalsOf(bot)).toBe("accepted");
    expect(await bot.locator("#reasons li").textContent()).toContain(
      "without a single pointer or key event",
    );
  });

  it("blocks the sixth signup from one IP in an hour", async () => {
    const { url, browser } = await shop("velocity", (merchant) =>
      turnOn(merchant, "rule_signup_velocity"),
    );
    const decisions: string[] = [];
    for (let n = 1; n <= 6; n++) {
      const page = await openShop(browser, url);
      await signUpLikeAPerson(page, `guest.number${n}@example.com`, 50);
      const answer = await result(page);
      decisions.push(answer.decision);
      if (n === 6) {
        await screenshot(page, "merchant-app-sixth-signup");
        expect(answer.rules).toEqual(["rule_signup_velocity"]);
        expect(await page.locator("#reasons li").first().textContent()).toContain("6th signup");
      }
      await page.close();
    }
    expect(decisions).toEqual(["allow", "allow", "allow", "allow", "allow", "block"]);
  });
});

async function templatesOn(merchant: Merchant, ...keys: string[]) {
  const templates = (await merchant.api.json<Record<string, boolean>>("/api/templates")).body;
  const on = Object.fromEntries(keys.map((key) => [key, true]));
  const put = await merchant.api.json("/api/templates", {
    method: "PUT",
    body: { ...templates, ...on },
  });
  expect(put.status).toBe(200);
}

async function openShop(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  // A person's Chrome says "Chrome", not "HeadlessChrome" (a bot's user agent, which the risk
  // score counts): the page and its requests get the desktop browser's user agent.
  const agent = (await page.evaluate(() => navigator.userAgent)).replace(
    "HeadlessChrome",
    "Chrome",
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.setUserAgentOverride", { userAgent: agent });
  await page.goto(url);
  await page.locator("#signup").waitFor();
  return page;
}

/** Moves the mouse in steps, clicks, types with human gaps, then clicks Sign up. */
async function signUpLikeAPerson(page: Page, email: string, delay = 70) {
  await page.mouse.move(40, 40);
  await clickLikeAPerson(page, "#email");
  await page.keyboard.type(email, { delay });
  await clickLikeAPerson(page, "#password");
  await page.keyboard.type("a long passphrase", { delay });
  await page.waitForTimeout(300);
  await clickLikeAPerson(page, "#signup-button");
  await waitForStep(page, "Sign up");
}

async function clickLikeAPerson(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
  await page.waitForTimeout(120);
  await page.mouse.down();
  await page.mouse.up();
}

async function waitForStep(page: Page, step: string) {
  await page.waitForFunction(
    (expected) =>
      !document.querySelector("#result")?.hasAttribute("hidden") &&
      document.querySelector("#step")?.textContent === expected,
    step,
  );
}

async function signalsOf(page: Page) {
  return page.locator("#result").getAttribute("data-signals");
}

async function result(page: Page) {
  return page.evaluate(() => ({
    step: document.querySelector("#step")?.textContent ?? "",
    decision: document.querySelector("#decision")?.textContent ?? "",
    rules: [...document.querySelectorAll<HTMLElement>("#reasons li")].map(
      (item) => item.dataset.rule ?? "",
    ),
  }));
}
