/**
 * Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core. One Chromium serves
 * every file of a worker (files run one after another there); each caller gets a context of
 * its own, a fresh profile with its own cookies and storage. Flags change the whole browser,
 * so a caller that passes some gets a Chromium of its own.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS_DIR = join(process.cwd(), "test-results");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let shared: Promise<Browser> | undefined;

/** The worker's Chromium, launched on first use (and again if it went away). */
function sharedChromium(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS }).then(
    (browser) => {
      browser.on("disconnected", () => {
        shared = undefined;
      });
      return browser;
    },
    (error) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

export type TestBrowser = Awaited<ReturnType<typeof launchBrowser>>;

export async function launchBrowser(
  viewport = { width: 1280, height: 800 },
  /** More Chromium flags, e.g. --disable-blink-features=AutomationControlled. */
  extraArgs: string[] = [],
) {
  if (extraArgs.length === 0) {
    const context = await (await sharedChromium()).newContext({ viewport });
    return wrap(context, () => context.close());
  }
  const profile = await mkdtemp(join(tmpdir(), "warden-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [...ARGS, ...extraArgs],
  });
  return wrap(context, async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });
}

function wrap(context: BrowserContext, close: () => Promise<void>) {
  return {
    context,
    async newPage(): Promise<Page> {
      return context.newPage();
    },
    close,
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
