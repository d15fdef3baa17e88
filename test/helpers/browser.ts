/** Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, one profile per test file. */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS_DIR = join(process.cwd(), "test-results");

export async function launchBrowser(
  viewport = { width: 1280, height: 800 },
  /** More Chromium flags, e.g. --disable-blink-features=AutomationControlled. */
  extraArgs: string[] = [],
) {
  const profile = await mkdtemp(join(tmpdir(), "warden-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
  return {
    context,
    async newPage(): Promise<Page> {
      return context.newPage();
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot under test-results/ (never committed) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Gives the browser a merchant's session, as a login would (replacing any other). */
export async function signInAs(context: BrowserContext, baseUrl: string, sessionToken: string) {
  await context.clearCookies();
  await context.addCookies([
    { name: "warden_session", value: sessionToken, url: baseUrl, httpOnly: true, sameSite: "Lax" },
  ]);
}
