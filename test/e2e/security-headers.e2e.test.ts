/**
 * The security headers in a real browser: the landing page and the console render under the
 * CSP with no violation, framing is refused, and /api/docs runs Swagger UI sandboxed, without
 * the visitor's session.
 */
import type { ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signInAs } from "../helpers/browser.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

describe("security headers in Chromium", () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    t = await startTestApp("embedded");
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page that records every CSP violation the browser reports. */
  async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on("console", (message: ConsoleMessage) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) {
        violations.push(message.text());
      }
    });
    await page.exposeFunction("__cspViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });
    return { page, violations };
  }

  it("sends CSP, frame-ancestors, nosniff and Referrer-Policy, and no HSTS over http", async () => {
    const response = await fetch(`${t.baseUrl}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("strict-transport-security")).toBeNull();
    const api = await fetch(`${t.baseUrl}/trpc/auth.me`);
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("renders the landing page with no CSP violation", async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${t.baseUrl}/`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
    await page.close();
  });

  it("renders the console's dashboard and settings with no CSP violation", async () => {
    const merchant = await signedInMerchant(t, "csp@example.com");
    await signInAs(browser.context, t.baseUrl, merchant.token);
    const { page, violations } = await watchedPage();
    await page.goto(`${t.baseUrl}/homepage/dashboard`);
    await page.getByRole("heading", { name: "Transaction Dashboard" }).waitFor();
    await page.goto(`${t.baseUrl}/homepage/settings`);
    await page.getByRole("form", { name: "Change Password" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
    await page.close();
  });

  it("runs Swagger UI at /api/docs under its own strict, sandboxed policy, without the session", async () => {
    const merchant = await signedInMerchant(t, "docs@example.com");
    await signInAs(browser.context, t.baseUrl, merchant.token);
    const { page, violations } = await watchedPage();
    const response = await page.goto(`${t.baseUrl}/api/docs`);
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).toContain("frame-ancestors 'none'");
    await page.locator(".swagger-ui .info .title").filter({ hasText: "Warden API" }).waitFor();
    await page.getByText("/api/rules").first().waitFor();
    expect(violations).toEqual([]);
    // The page's origin is opaque: it cannot read the API with the visitor's cookie.
    const probe = await page.evaluate(async () => {
      try {
        const answer = await fetch("/api/me", { credentials: "include" });
        return `read ${answer.status}: ${await answer.text()}`;
      } catch {
        return "blocked";
      }
    });
    expect(probe).toBe("blocked");
    expect(await page.locator(".try-out__btn").count()).toBe(0);
    await page.close();
  });
});
