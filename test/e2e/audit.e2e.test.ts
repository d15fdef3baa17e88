/**
 * The Audit log page in real Chromium against the real app: a rule turned on in the console
 * shows as "<email> changed the rules", newest first, and opens to show what changed (old and
 * new); a label from the merchant's backend is marked as an API key's; a failed sign-in says
 * so. The filters (kind of change, who) narrow the list and the "Export CSV" link carries
 * them; "Load more" pages on; and the page fits a 375 px phone without sideways scrolling.
 * A member removed on the Team page, a revoked key and a labelled screening read by name and
 * email, not by id, also once the member is gone; each id is one click away. The removed
 * member's open console says they are no longer in the account on its next load.
 * Screenshots: test-results/audit-page.png, 47-audit-1280.png and 47-audit-375.png.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, launchBrowser, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { TestClient } from "../helpers/http-client.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { pastRightEdge, scrollingSideways } from "../helpers/overflow.ts";
import { backendOf } from "../helpers/screening.ts";
import { linkIn } from "../helpers/smtp.ts";
import type { TestApp } from "../helpers/test-app.ts";

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };
const BOT = "python-requests/2.31";

describe("audit log in Chromium", () => {
  let t: TestApp;
  let merchant: Merchant;
  let browser: ConsoleBrowser["browser"];
  let page: Page;
  let keyPrefix = "";
  let keyId = "";
  let screenedId = "";

  beforeAll(async () => {
    ({ t, merchant, browser, page } = await openConsole("audit-console@example.com"));
    // Older events than a page holds, so "Load more" has something to load.
    const start = t.clock.now().getTime() - 10 * 86_400_000;
    await t.prisma.auditEvent.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({
        accountId: merchant.accountId,
        at: new Date(start + i * 60_000),
        actorKind: "member",
        actor: merchant.email,
        ip: "198.51.100.4",
        action: "templates.put",
        before: { template_account_farm_shield: false },
        after: { template_account_farm_shield: true },
      })),
    });
    t.clock.advance(1000);
  });
  afterAll(() => closeConsole({ t, browser }));

  const open = async () => {
    await page.goto(`${t.baseUrl}/homepage/audit`);
    await page.getByRole("heading", { name: "Audit log", exact: true }).waitFor();
    await page.locator("li[data-audit-event]").first().waitFor();
  };
  const cards = () => page.locator("li[data-audit-event]");
  const actions = () =>
    cards()
      .locator("[data-action]")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-action")));

  it("shows a rule changed in the console, newest first, with what changed", async () => {
    await page.goto(`${t.baseUrl}/homepage/rules`);
    const efw = page.getByRole("switch", { name: "Early Fraud Warning Detection" });
    await efw.waitFor();
    const saved = page.waitForResponse(
      (r) => r.url().includes("/trpc/rules.put") && r.request().method() === "POST",
    );
    await page.getByText("Early Fraud Warning Detection").click();
    expect((await saved).status()).toBe(200);
    t.clock.advance(1000);

    // A label from the merchant's backend, and a wrong password.
    const backend = await backendOf(t, merchant);
    keyPrefix = backend.keyId.slice(0, 8);
    keyId = backend.keyId;
    t.clock.advance(1000);
    const screened = await backend.decide({ type: "request", user_agent: BOT });
    screenedId = screened.id;
    const labelled = await backend.client.json("/api/v1/labels", {
      body: { subject_kind: "screening", subject_id: screened.id, label: "fraud" },
    });
    expect(labelled.status).toBe(200);
    t.clock.advance(1000);
    const wrong = await new TestClient(t.baseUrl, {}).json("/api/auth/login", {
      body: { email: merchant.email, password: "not the password" },
    });
    expect(wrong.status).toBe(401);
    t.clock.advance(1000);

    await page.setViewportSize(LAPTOP);
    await open();
    expect((await actions()).slice(0, 4)).toEqual([
      "auth.sign_in_failed",
      "labelsApi.create",
      "apiKeys.create",
      "rules.put",
    ]);
    const [failed, label, key, rules] = [0, 1, 2, 3].map((at) => cards().nth(at));
    expect(await failed?.locator(".au-what").innerText()).toBe(
      `${merchant.email} failed to sign in`,
    );
    expect(await label?.locator(".au-what").innerText()).toBe(
      `API key backend (${keyPrefix}) labelled an event through the API`,
    );
    expect(await label?.locator(".au-badge").innerText()).toBe("API key");
    // What was labelled, by its kind, decision and score; its id one click away.
    const labelMeta = label?.locator(".au-meta");
    expect(await labelMeta?.innerText()).toMatch(
      /On request screening \((allowed|sent to review|blocked), score \d+\)/,
    );
    expect(await labelMeta?.innerText()).not.toContain(screened.id);
    await label?.getByRole("button", { name: "id", exact: true }).click();
    expect(await label?.locator(".au-id-value").innerText()).toBe(screened.id);
    expect(await key?.locator(".au-what").innerText()).toBe(`${merchant.email} created an API key`);
    expect(await rules?.locator(".au-what").innerText()).toBe(
      `${merchant.email} changed the rules`,
    );
    // When, in the viewer's local time, and from where.
    const meta = await rules?.locator(".au-meta").innerText();
    expect(meta).toContain("IP 127.0.0.1");
    const at = await rules?.locator("time").getAttribute("datetime");
    expect(meta).toContain(await page.evaluate((iso) => new Date(iso).toLocaleString(), at ?? ""));

    // Before and after: the one key that changed, old and new.
    await rules?.getByRole("button", { name: "Show details" }).click();
    const change = rules?.locator('[data-change="rule_efw"]');
    expect(await change?.innerText()).toMatch(/rule_efw\s*false\s*→\s*changed to\s*true/);
    expect(await rules?.locator("[data-change]").count()).toBe(1);
    // An event without a before shows what was sent.
    await key?.getByRole("button", { name: "Show details" }).click();
    expect(await key?.locator("pre").innerText()).toContain('"name": "backend"');
    await key?.getByRole("button", { name: "Hide details" }).click();
    expect(await key?.locator("pre").count()).toBe(0);
    // The top of the page, as a person sees it, details open (the pointer off the buttons).
    await page.setViewportSize({ width: LAPTOP.width, height: 900 });
    await page.mouse.move(0, 0);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS_DIR, "audit-page.png") });
  });

  it("filters by kind of change and by who, and exports what it shows", async () => {
    await open();
    const listed = page.waitForResponse((r) => r.url().includes("/trpc/audit.list"));
    await page.getByLabel("Kind of change").selectOption({ label: "Rules" });
    await listed;
    await expect.poll(actions).toEqual(["rules.put"]);
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    expect(href).toBe(`/api/audit.csv?action=${encodeURIComponent("rules.,ruleSettings.")}`);
    const csv = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, text: await response.text() };
    }, href ?? "");
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",rules.put,");

    await page.getByLabel("Kind of change").selectOption({ label: "All" });
    await page.getByLabel("Who").fill("api key");
    await expect.poll(actions).toEqual(["labelsApi.create"]);
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      "/api/audit.csv?actor=api+key",
    );
    await page.getByLabel("Who").fill("nobody@example.com");
    await page.getByText("No events match these filters.").waitFor();

    // A range that runs backwards is named, not sent.
    await page.getByLabel("Who").fill("");
    await page.getByLabel("From").fill("2026-11-21");
    await page.getByLabel("To").fill("2026-11-20");
    await page.getByRole("alert").getByText("The first day comes after the last one").waitFor();
  });

  it("loads older events with Load more", async () => {
    await open();
    const total = 55 + 4 + 2; // the seeded events, the four above, and two sign-ins
    expect(await cards().count()).toBe(50);
    await page.getByText("50 events shown").waitFor();
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(`${total} events shown`).waitFor();
    expect(await cards().count()).toBe(total);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    const times = await cards()
      .locator("time")
      .evaluateAll((els) => els.map((el) => el.getAttribute("datetime") ?? ""));
    expect(times).toEqual([...times].sort().reverse());
  });

  it("fits a 375 px phone without sideways scrolling, details open", async () => {
    await page.setViewportSize(PHONE);
    await open();
    for (const at of [1, 3]) {
      await cards().nth(at).getByRole("button", { name: "Show details" }).click();
    }
    await cards().nth(3).locator("[data-change]").first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    const sideways = await scrollingSideways(page);
    expect(sideways).toEqual([]);
    const beyond = await pastRightEdge(page, PHONE.width);
    expect(beyond).toEqual([]);
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS_DIR, "audit-page-375.png") });
  });

  it("names a removed member, a revoked key and a labelled screening, not their ids", async () => {
    const member = await signedInMerchant(t, "audit-teammate@example.com");
    const invited = await merchant.browser.mutate("team.invite", {
      email: member.email,
      role: "analyst",
    });
    expect(invited).toMatchObject({ ok: true });
    const token = linkIn(await t.smtp.waitFor(member.email, "invited you"), "/invite");
    const accepted = await member.browser.mutate("team.acceptInvite", {
      token: token.searchParams.get("token"),
    });
    expect(accepted).toMatchObject({ ok: true });
    const memberId = (await t.prisma.user.findUniqueOrThrow({ where: { email: member.email } })).id;
    t.clock.advance(1000);

    // The member has the console open: it notes the accounts they are in.
    const theirs = await launchBrowser();
    await signInAs(theirs.context, t.baseUrl, member.token);
    const memberPage = await theirs.newPage();
    await memberPage.goto(`${t.baseUrl}/homepage/dashboard`);
    await memberPage.waitForFunction(() =>
      Object.keys(localStorage).some((key) => key.startsWith("warden.memberships.")),
    );

    // Removed on the Team page, as an owner does it.
    await page.setViewportSize(LAPTOP);
    await page.goto(`${t.baseUrl}/homepage/team`);
    await page.getByRole("button", { name: `Remove ${member.email}` }).click();
    const removed = page.waitForResponse((r) => r.url().includes("/trpc/team.remove"));
    await page.getByRole("button", { name: "Yes, remove" }).click();
    expect((await removed).status()).toBe(200);
    await page
      .getByRole("button", { name: `Remove ${member.email}` })
      .waitFor({ state: "detached" });
    // Their console says so on its next load, as their mail does.
    await memberPage.reload();
    await memberPage
      .getByRole("status")
      .getByText(/^You are no longer a member of .+\.$/)
      .waitFor();
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await memberPage.screenshot({ path: join(ARTIFACTS_DIR, "47-membership-notice.png") });
    await theirs.close();
    t.clock.advance(1000);
    const revoked = await merchant.api.request(`/api/api-keys/${keyId}`, { method: "DELETE" });
    expect(revoked.status).toBe(204);
    t.clock.advance(1000);
    const labelled = await merchant.browser.mutate("labels.add", {
      subject_kind: "screening",
      subject_id: screenedId,
      label: "legitimate",
    });
    expect(labelled).toMatchObject({ ok: true });
    t.clock.advance(1000);

    await open();
    expect((await actions()).slice(0, 3)).toEqual(["labels.add", "apiKeys.revoke", "team.remove"]);
    const [label, key, gone] = [0, 1, 2].map((at) => cards().nth(at));
    expect(await gone?.locator(".au-what").innerText()).toBe(
      `${merchant.email} removed a team member`,
    );
    expect(await gone?.locator(".au-target-label").innerText()).toBe(member.email);
    expect(await key?.locator(".au-target-label").innerText()).toBe("API key backend");
    expect(await label?.locator(".au-target-label").innerText()).toMatch(
      /^request screening \((allowed|sent to review|blocked), score \d+\)$/,
    );
    // What a call made reads by name too: the invitation by the email invited.
    const inviteCard = cards().filter({ has: page.locator('[data-action="team.invite"]') });
    expect(await inviteCard.locator(".au-target-label").innerText()).toBe(member.email);
    // No UUID on any of them until asked for; then the removed member's id, one click away.
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
    for (const card of [label, key, gone]) {
      expect(await card?.locator(".au-what, .au-meta").allInnerTexts()).not.toEqual(
        expect.arrayContaining([expect.stringMatching(UUID)]),
      );
    }
    await gone?.getByRole("button", { name: "id", exact: true }).click();
    expect(await gone?.locator(".au-id-value").innerText()).toBe(memberId);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(ARTIFACTS_DIR, "47-audit-1280.png") });

    await page.setViewportSize(PHONE);
    await open();
    await cards().nth(2).getByRole("button", { name: "id", exact: true }).click();
    expect(await scrollingSideways(page)).toEqual([]);
    expect(await pastRightEdge(page, PHONE.width)).toEqual([]);
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS_DIR, "47-audit-375.png") });
  });
});
