/**
 * The Data requests page in real Chromium against the real app (docs/privacy.md): a person is
 * screened three times through the real API; the owner finds them by email and sees the
 * counts by source, downloads the export (a JSON file named by the time, not the email, that
 * holds the screenings), erases them after the two steps (what goes, what is kept, typing
 * ERASE) and sees the result; asked again, nothing holds the email. A bad IP is refused at its
 * field; an analyst may find and download but is offered no Erase; a viewer is told why.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EndUserExport } from "../../shared/schemas/end-users.ts";
import type { Role } from "../../shared/team/roles.ts";
import { screenshot, signInAs } from "../helpers/browser.ts";
import { type ConsoleBrowser, closeConsole, openConsole } from "../helpers/console-browser.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";

const PERSON = {
  email: "dana.request@example.com",
  ip: "203.0.113.77",
  user_id: "user_dr_1",
  device_id: "device-dr-1",
};
const OTHER = { email: "someone.else@example.com", ip: "198.51.100.9", user_id: "user_dr_2" };

describe("data requests in Chromium", () => {
  let opened: ConsoleBrowser;
  let t: ConsoleBrowser["t"];
  let page: Page;

  beforeAll(async () => {
    opened = await openConsole("data-requests-owner@example.com");
    ({ t, page } = opened);
    const backend = await backendOf(t, opened.merchant);
    // The email in another case once: a person is found whatever case their email was sent in.
    await backend.decide({ type: "signup", ...PERSON, email: "Dana.Request@Example.com" });
    await backend.decide({ type: "login", ...PERSON });
    await backend.decide({ type: "trial_start", ...PERSON });
    await backend.decide({ type: "signup", ...OTHER });
  });
  afterAll(async () => {
    await closeConsole(opened ?? {});
  });

  const findForm = () => page.getByRole("form", { name: "Find a person" });
  const held = () => page.getByRole("table", { name: "Stored rows holding this person" });
  const countOf = (table: ReturnType<Page["getByRole"]>, source: string) =>
    table.locator(`tr[data-source="${source}"] td.dr-count`).innerText();
  const screeningsHolding = (email: string) =>
    t.prisma.screening.count({
      where: {
        accountId: opened.merchant.accountId,
        email: { equals: email, mode: "insensitive" },
      },
    });

  /** Fills the form (each field by its input's name; a field's error joins its label's text). */
  async function find(fields: Partial<Record<"email" | "user_id" | "device_id" | "ip", string>>) {
    for (const name of ["email", "user_id", "device_id", "ip"] as const) {
      await findForm()
        .locator(`input[name="${name}"]`)
        .fill(fields[name] ?? "");
    }
    await findForm().getByRole("button", { name: "Find" }).click();
  }

  it("finds the person by email and shows how many rows hold them, by source", async () => {
    await page.goto(`${t.baseUrl}/homepage/data-requests`);
    await page.getByRole("heading", { name: "Data requests", exact: true }).waitFor();
    // Reached from the console's navigation, beside the Audit log.
    expect(
      await page
        .getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Data requests" })
        .count(),
    ).toBeGreaterThan(0);

    await find({ email: "DANA.request@example.com" });
    await held().waitFor();
    expect(await countOf(held(), "screenings")).toBe("3");
    expect(await held().innerText()).toContain("Screenings: each screened event");
    await page.getByText("About email dana.request@example.com").waitFor();
    // What the email's screenings carried beside it is offered, not followed: a user id an
    // end user could have forged, and the device, each to add on purpose.
    const widen = page.getByRole("checkbox", { name: /Also include/ });
    expect(await widen.isChecked()).toBe(false);
    expect(await page.locator("label.dr-widen").innerText()).toContain(PERSON.user_id);
    await page.getByRole("button", { name: `Add device ${PERSON.device_id}` }).waitFor();
  });

  it("downloads the export as a JSON file named by the time, holding the screenings", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download export" }).click(),
    ]);
    const name = download.suggestedFilename();
    expect(name).toMatch(/^warden-end-user-export-\d{4}-\d{2}-\d{2}-\d{6}\.json$/);
    expect(name).not.toContain("dana");
    const file = JSON.parse(await readFile(await download.path(), "utf8")) as EndUserExport;
    expect(file.counts.screenings).toBe(3);
    expect(file.screenings).toHaveLength(3);
    for (const screening of file.screenings) {
      expect(JSON.stringify(screening).toLowerCase()).toContain(PERSON.email);
    }
    expect(JSON.stringify(file)).not.toContain(OTHER.email);
  });

  it("erases the person after showing what goes and what is kept, and typing ERASE", async () => {
    await page.getByRole("button", { name: "Erase…" }).click();
    const steps = page.getByRole("region", { name: "Erase this person's data" });
    const willGo = steps.getByRole("list", { name: "What will be erased" });
    expect(await willGo.innerText()).toMatch(/Screenings: each screened event.*: 3/);
    expect(await willGo.innerText()).not.toContain("Counting identities");
    const kept = await steps.getByRole("list", { name: "What is kept" }).locator("li").count();
    expect(kept).toBeGreaterThan(0);
    await steps.getByRole("button", { name: "Continue" }).click();

    const confirm = steps.getByRole("form", { name: "Confirm the erasure" });
    const eraseButton = confirm.getByRole("button", { name: "Erase permanently" });
    expect(await eraseButton.isDisabled()).toBe(true);
    await confirm.getByLabel("Type ERASE to confirm").fill("erase");
    expect(await eraseButton.isDisabled()).toBe(true);
    await confirm.getByLabel("Type ERASE to confirm").fill("ERASE");
    await screenshot(page, "data-requests-confirm");
    expect(await screeningsHolding(PERSON.email)).toBe(3);
    const erased = page.waitForResponse((r) => r.url().includes("/trpc/endUsers.erase"));
    await eraseButton.click();
    expect((await erased).status()).toBe(200);

    const done = page.getByRole("region", { name: "Erased" });
    await done.waitFor();
    expect(await done.getByRole("status").innerText()).toMatch(/Erasure \S+ done at/);
    const result = done.getByRole("table", { name: "Rows erased or made unreadable" });
    expect(await countOf(result, "screenings")).toBe("3");
    // The counting identities' digests are kept (decision 029), and say so.
    expect(await countOf(result, "identities")).toMatch(/^\d+ kept$/);
    await screenshot(page, "data-requests-erased");

    expect(await screeningsHolding(PERSON.email)).toBe(0);
    expect(await screeningsHolding(OTHER.email)).toBe(1);
    // In the audit log, without the values it was asked about.
    const audit = await t.prisma.auditEvent.findMany({
      where: { accountId: opened.merchant.accountId, action: "endUsers.erase" },
    });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit).toLowerCase()).not.toContain(PERSON.email);
  });

  it("finds no screening holding the email when asked again", async () => {
    await find({ email: PERSON.email });
    await held().waitFor();
    expect(await countOf(held(), "screenings")).toBe("0");
  });

  it("refuses a malformed IP address at its field", async () => {
    await find({ ip: "203.0.113.999" });
    const ip = findForm().getByLabel("IP address");
    await findForm().getByText("must be an IPv4 or IPv6 address").waitFor();
    expect(await ip.getAttribute("aria-invalid")).toBe("true");
    await find({});
    await findForm().getByText("give at least one of email, user_id, device_id, ip").waitFor();
  });

  /** A page signed in as a new member of the owner's account with `role`. */
  async function pageAs(role: Role): Promise<Page> {
    const person = await signedInMerchant(t, `${role}@data-requests.example`);
    const user = await t.prisma.user.findUniqueOrThrow({ where: { email: person.email } });
    await t.prisma.membership.create({
      data: { accountId: opened.merchant.accountId, userId: user.id, role },
    });
    const { token } = await t.app.services.sessions.create(user.id, opened.merchant.accountId);
    await signInAs(opened.browser.context, t.baseUrl, token);
    return opened.browser.newPage();
  }

  it("lets an analyst find and download, and offers them no Erase", async () => {
    page = await pageAs("analyst");
    await page.goto(`${t.baseUrl}/homepage/data-requests`);
    await find({ user_id: OTHER.user_id });
    await held().waitFor();
    expect(await countOf(held(), "screenings")).toBe("1");
    await page.getByRole("button", { name: "Download export" }).waitFor();
    expect(await page.getByRole("button", { name: "Erase…" }).count()).toBe(0);
  });

  it("tells a viewer why they may not, with no form to fill", async () => {
    page = await pageAs("viewer");
    await page.goto(`${t.baseUrl}/homepage/data-requests`);
    await page.getByText("You are a viewer in this account").waitFor();
    expect(await page.getByRole("form", { name: "Find a person" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Erase…" }).count()).toBe(0);
  });
});
