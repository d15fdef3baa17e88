/** Headers that depend on configuration: HSTS and upgrade-insecure-requests only over https. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { helmetFor } from "../server/transport/http/security-headers.plugin.ts";
import type { TestApp } from "./helpers/test-app.ts";
import { withTestApp } from "./with-test-app.ts";

/** The security headers helmet itself sets on a real Node response. */
async function helmetHeaders(https: boolean): Promise<Record<string, unknown>> {
  const middleware = helmetFor(https);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    middleware(req, res, () => res.end());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const skip = new Set([
      "date",
      "connection",
      "keep-alive",
      "content-length",
      "transfer-encoding",
    ]);
    return Object.fromEntries([...response.headers].filter(([name]) => !skip.has(name)));
  } finally {
    server.close();
  }
}

describe("security headers with an https PUBLIC_URL", () => {
  let t: TestApp;
  withTestApp("embedded", { env: { PUBLIC_URL: "https://warden.example.com" } }, (app) => {
    t = app;
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

  it("sends exactly the headers helmet sets, computed once at start", async () => {
    const expected = await helmetHeaders(true);
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    for (const url of ["/", "/healthz", "/webhooks/stripe/no-such-endpoint"]) {
      const response = await t.app.inject({
        url,
        method: url.startsWith("/webhooks") ? "POST" : "GET",
      });
      for (const [name, value] of Object.entries(expected)) {
        expect(response.headers[name], `${url} ${name}`).toBe(value);
      }
    }
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
