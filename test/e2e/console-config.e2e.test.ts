import { describe, expect, it } from "vitest";
import { NETWORK_ERROR } from "../../client/src/lib/trpc.ts";
import { MESSAGES } from "../../shared/messages.ts";
import { screenshot } from "../helpers/browser.ts";
import { useConsole } from "../helpers/console-browser.ts";
import { pastRightEdge } from "../helpers/overflow.ts";

const SECRET = "sk_test_51BrowserSecretKey4242";

describe("console configuration in Chromium", () => {
  const c = useConsole("console@example.com");

  /** Waits for the next successful save of `entity` while `act` runs. */
  async function saved(entity: string, act: () => Promise<unknown>) {
    const response = c.page.waitForResponse(
      (r) => r.url().includes(`/trpc/${entity}.put`) && r.request().method() === "POST",
    );
    await act();
    expect((await response).status()).toBe(200);
  }

  const storedRules = async () =>
    (await c.merchant.api.json<Record<string, unknown>>("/api/rules")).body;

  it("turns a rule on, and it is still on after a reload", async () => {
    await c.page.goto(`${c.t.baseUrl}/homepage/rules`);
    await c.page.getByRole("heading", { name: "Detection Rules (Standard + Advanced)" }).waitFor();
    await c.page.getByRole("heading", { name: "Standard Detection Rule" }).waitFor();
    const efw = c.page.getByRole("switch", { name: "Early Fraud Warning Detection" });
    expect(await efw.isChecked()).toBe(false);
    const advanced = c.page.getByRole("list", { name: "Advanced Detection Rules" });
    expect(await advanced.getByRole("switch").count()).toBe(11);
    // All fifteen rules work: no "Under development" badge is left.
    expect(await c.page.getByText("Under development").count()).toBe(0);

    await saved("rules", () => c.page.getByText("Early Fraud Warning Detection").click());
    expect(await efw.isChecked()).toBe(true);
    // The save is confirmed on the page, not only on the switch, in sight though the status
    // line comes after every rule.
    const status = c.page.getByRole("status").filter({ hasText: /^Saved$/ });
    await status.waitFor();
    const box = await status.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(c.page.viewportSize()?.height ?? 0);
    await c.page.reload();
    await efw.waitFor();
    expect(await efw.isChecked()).toBe(true);
    expect(await storedRules()).toMatchObject({ rule_efw: true });
    await screenshot(c.page, "console-rules");
  });

  it("clamps the threshold while typing: 150 shows 100, -5 shows 0, and saves it", async () => {
    const threshold = c.page.getByRole("spinbutton", { name: /Threshold/ });
    expect(await threshold.inputValue()).toBe("70");
    await saved("rules", () => threshold.fill("150"));
    expect(await threshold.inputValue()).toBe("100");
    await saved("rules", () => threshold.fill("-5"));
    expect(await threshold.inputValue()).toBe("0");
    await expect.poll(async () => (await storedRules()).risk_level_threshold).toBe(0);
    await c.page.reload();
    expect(await c.page.getByRole("spinbutton", { name: /Threshold/ }).inputValue()).toBe("0");
  });

  it("keeps every one of several rapid toggles", async () => {
    for (const label of [
      "Country blocked",
      "Signup velocity",
      "Timezone mismatch",
      "Signup velocity",
    ]) {
      await c.page.getByText(label, { exact: true }).click();
    }
    await expect.poll(storedRules, { timeout: 10_000 }).toMatchObject({
      rule_country_blocked: true,
      rule_signup_velocity: false,
      rule_timezone_mismatch: true,
    });
    await expect
      .poll(() => c.page.getByRole("status").filter({ hasText: "Saving" }).count())
      .toBe(0);
    expect(await c.page.getByRole("switch", { name: "Timezone mismatch" }).isChecked()).toBe(true);
    expect(await c.page.getByRole("switch", { name: "Signup velocity" }).isChecked()).toBe(false);
  });

  it("puts a toggle back and says so when the save fails", async () => {
    await c.page.route("**/trpc/rules.put**", (route) => route.abort());
    const email = c.page.getByRole("switch", { name: "Block disposable or low-reputation emails" });
    await c.page.getByText("Block disposable or low-reputation emails").click();
    // The browser's "Failed to fetch" reads as what happened, in words a person can act on.
    await c.page
      .getByRole("alert")
      .filter({ hasText: `Your change was not saved: ${NETWORK_ERROR}` })
      .waitFor();
    expect(await c.page.getByText("Failed to fetch").count()).toBe(0);
    expect(await email.isChecked()).toBe(false);
    await c.page.unroute("**/trpc/rules.put**");
    expect(await storedRules()).toMatchObject({ rule_email: false });
  });

  it("says Saved once a template is switched", async () => {
    await c.page.goto(`${c.t.baseUrl}/homepage/templates`);
    const template = c.page.getByRole("switch", { name: "One Human One Trial" });
    // The switch's own box is drawn over by its track: a person clicks the label.
    const toggle = c.page.locator("label.toggle", { has: template });
    await template.waitFor();
    expect(await template.isChecked()).toBe(false);
    await saved("templates", () => toggle.click());
    await c.page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(await template.isChecked()).toBe(true);
    expect((await c.merchant.api.json("/api/templates")).body).toMatchObject({
      template_one_human_one_trial: true,
    });
    await saved("templates", () => toggle.click());
    await c.page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
  });

  it("adds a custom provider trimmed and lowercased, once", async () => {
    await c.page.goto(`${c.t.baseUrl}/homepage/block-lists`);
    await c.page.getByRole("heading", { name: "Block lists" }).waitFor();
    await c.page.getByText(MESSAGES.blocklistNote).waitFor();
    const input = c.page.getByLabel("Custom domain");
    const add = c.page.getByRole("button", { name: "Add", exact: true });
    expect(await add.isDisabled()).toBe(true);

    await input.fill(" Example.COM ");
    expect(await add.isDisabled()).toBe(false);
    await saved("blocklist", () => add.click());
    const blocked = c.page.getByRole("list", { name: "Blocked providers" });
    await blocked.getByText("example.com", { exact: true }).waitFor();
    await input.fill(" Example.COM ");
    await add.click();
    expect(await input.inputValue()).toBe("");
    expect(await blocked.getByRole("listitem").allTextContents()).toEqual(["example.com×"]);

    await saved("blocklist", () => c.page.getByLabel("gmail.com").check());
    expect(await blocked.getByRole("listitem").count()).toBe(2);
    const stored = await c.merchant.api.json("/api/blocklist");
    expect(stored.body).toEqual({ countries: [], email_providers: ["example.com", "gmail.com"] });
  });

  it("ticks a country, and it is still ticked after a reload", async () => {
    const countries = c.page.getByRole("list", { name: "Countries" });
    expect(await countries.getByRole("checkbox").count()).toBeGreaterThan(240);
    const box = await countries.evaluate((el) => el.getBoundingClientRect().height);
    expect(box).toBeLessThanOrEqual(800 * 0.4 + 1);

    await c.page.getByLabel("Filter countries").fill("france");
    const france = countries.getByRole("checkbox", { name: "France FR" });
    await saved("blocklist", () => france.check());
    await c.page.reload();
    await c.page.getByRole("heading", { name: "Country block list" }).waitFor();
    expect(await c.page.getByRole("checkbox", { name: "France FR" }).isChecked()).toBe(true);
    expect(await c.page.getByRole("checkbox", { name: "Germany DE" }).isChecked()).toBe(false);
    expect((await c.merchant.api.json("/api/blocklist")).body).toMatchObject({ countries: ["FR"] });
    await screenshot(c.page, "console-block-lists");
  });

  it("saves settings, then shows the secret key only as a masked hint", async () => {
    await c.page.goto(`${c.t.baseUrl}/homepage/settings`);
    await c.page.getByRole("heading", { name: "Settings" }).first().waitFor();
    await c.page.getByLabel("App Name").fill("Acme");
    await c.page.getByLabel("Contact Email").fill("ops@acme.test");
    const secret = c.page.locator('input[name="stripe_secret"]');
    await secret.fill(SECRET);
    expect(await secret.getAttribute("type")).toBe("password");
    await c.page.getByRole("button", { name: "Show" }).click();
    expect(await secret.getAttribute("type")).toBe("text");
    await c.page.getByRole("button", { name: "Hide" }).click();
    expect(await secret.getAttribute("type")).toBe("password");
    await c.page.getByLabel("Stripe Publishable Key").fill("pk_test_51BrowserPublishable01");
    await c.page.locator('input[name="stripe_webhook_secret"]').fill("whsec_BrowserSigning5555");
    // The server supplies this account's webhook URL: shown, read-only.
    const webhookUrl = c.page.locator('input[name="stripe_webhook_url"]');
    expect(await webhookUrl.inputValue()).toBe(
      `${c.t.config.publicUrl}/webhooks/stripe/${(await c.t.prisma.account.findUniqueOrThrow({ where: { id: c.merchant.accountId } })).webhookEndpointId}`,
    );
    expect(await webhookUrl.getAttribute("readonly")).not.toBeNull();

    await c.page.getByRole("button", { name: "Save Settings" }).click();
    await c.page.getByText(MESSAGES.settingsSaved).waitFor();

    await c.page.reload();
    await c.page.getByText("Saved key: sk_test_…4242").waitFor();
    await c.page.getByText("Saved secret: whsec_…5555").waitFor();
    expect(await c.page.locator('input[name="stripe_secret"]').inputValue()).toBe("");
    expect(await c.page.locator('input[name="stripe_secret"]').getAttribute("type")).toBe(
      "password",
    );
    expect(await c.page.getByLabel("App Name").inputValue()).toBe("Acme");
    expect(await c.page.content()).not.toContain(SECRET);
    await c.page.getByRole("heading", { name: "Change Password" }).waitFor();
    await screenshot(c.page, "console-settings");
  });

  it("lists Settings' sections at the top, each a link that lands on it, at 375 px too", async () => {
    await c.page.setViewportSize({ width: 375, height: 800 });
    try {
      await c.page.goto(`${c.t.baseUrl}/homepage/settings`);
      const contents = c.page.getByRole("navigation", { name: "Settings sections" });
      await contents.waitFor();
      const links = await contents
        .getByRole("link")
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute("href")));
      expect(links).toEqual([
        "#app",
        "#api-keys",
        "#collector",
        "#webhooks",
        "#import",
        "#retention",
        "#account",
        "#password",
        "#two-factor",
      ]);
      // Every link has its section, with a heading inside it.
      for (const href of links) {
        const target = c.page.locator(`${href}`);
        expect(await target.count(), `${href}`).toBe(1);
        expect(await target.locator("h2, h3").count(), `${href} heading`).toBeGreaterThan(0);
      }
      expect(await pastRightEdge(c.page, 375)).toEqual([]);
      await contents.getByRole("link", { name: "Decision webhooks" }).click();
      await c.page.waitForURL(/#webhooks$/);
      const heading = c.page.getByRole("heading", { name: "Decision webhooks" });
      await expect
        .poll(() => heading.evaluate((h) => h.getBoundingClientRect().top))
        .toBeLessThan(200);
      await screenshot(c.page, "settings-sections-375");
    } finally {
      await c.page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("names the field when a setting is invalid", async () => {
    await c.page.locator('input[name="stripe_secret"]').fill("pk_test_wrongKindOfKey");
    await c.page.getByRole("button", { name: "Save Settings" }).click();
    await c.page.getByText(/must be a Stripe secret key starting with sk_test_/).waitFor();
    expect(await c.page.getByText(MESSAGES.settingsSaved).count()).toBe(0);
  });
});
