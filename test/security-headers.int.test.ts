/** Headers that depend on configuration: HSTS and upgrade-insecure-requests only over https. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./helpers/test-app.ts";

describe("security headers with an https PUBLIC_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp("embedded", { env: { PUBLIC_URL: "https://warden.example.com" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(["/", "/trpc/auth.me", "/api/me", "/healthz"])("sends HSTS on %s", async (url) => {
    const response = await t.app.inject({ url });
    expect(response.headers["strict-transport-security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(String(response.headers["content-security-policy"])).toContain(
      "upgrade-insecure-requests",
    );
  });

  it("gives /api/docs its own sandboxed policy with no 'unsafe-eval' and no framing", async () => {
    const response = await t.app.inject({ url: "/api/docs" });
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("allow-same-origin");
    // Every asset the page names loads.
    for (const src of response.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const url = new URL(src[1] ?? "", "https://warden.example.com/api/docs").pathname;
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
  });
});
