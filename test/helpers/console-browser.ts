/** A signed-in merchant's console in Chromium, on a fresh app: what every console journey starts from. */
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser, signInAs } from "./browser.ts";
import type { DbKind } from "./databases.ts";
import { type Merchant, signedInMerchant } from "./merchants.ts";
import { startTestApp, type TestApp } from "./test-app.ts";

export type ConsoleBrowser = {
  t: TestApp;
  merchant: Merchant;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  page: Page;
};

/** The console's pages under /homepage that every member sees, in the navigation's order. */
export const CONSOLE_PAGES = [
  "dashboard",
  "rules",
  "templates",
  "block-lists",
  "screenings",
  "review",
  "settings",
];

export async function openConsole(
  email: string,
  kind: DbKind = "embedded",
): Promise<ConsoleBrowser> {
  const t = await startTestApp(kind);
  const merchant = await signedInMerchant(t, email);
  const browser = await launchBrowser();
  await signInAs(browser.context, t.baseUrl, merchant.token);
  return { t, merchant, browser, page: await browser.newPage() };
}

export async function closeConsole(opened: Partial<ConsoleBrowser>): Promise<void> {
  await opened.browser?.close();
  await opened.t?.close();
}

/**
 * The file's console: opened before its first test, closed after its last. Its fields are
 * filled in by then (`c.page`, `c.t`, `c.merchant`, `c.browser`).
 */
export function useConsole(email: string, kind: DbKind = "embedded"): ConsoleBrowser {
  const opened = {} as ConsoleBrowser;
  beforeAll(async () => {
    Object.assign(opened, await openConsole(email, kind));
  });
  afterAll(() => closeConsole(opened));
  return opened;
}
