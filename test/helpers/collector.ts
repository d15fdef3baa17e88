/** The browser collector's side for tests: a publishable key, allowed origins, collect calls. */
import { expect } from "vitest";
import { postExact } from "../../scripts/lib/exact-post.ts";
import type { Merchant } from "./merchants.ts";
import type { TestApp } from "./test-app.ts";

export const SHOP = "https://shop.example.com";

/** Sets the merchant's allowed origins (Settings → API keys; rule_referrer_mismatch's too). */
export async function allowOrigins(merchant: Merchant, origins: string[]) {
  const put = await merchant.api.json("/api/allowed-origins", {
    method: "PUT",
    body: { origins },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}

export async function publishableKeyOf(merchant: Merchant, name = "web") {
  const created = await merchant.api.json<{ id: string; key: string; kind: string }>(
    "/api/api-keys",
    { body: { name, kind: "publishable" } },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

/** A human-looking collect body. */
export function humanSignals(overrides: Record<string, unknown> = {}) {
  return {
    device_id: "wd1_0123456789abcdef0123456789ab",
    timezone: "America/New_York",
    url: `${SHOP}/signup`,
    referrer: `${SHOP}/pricing`,
    webdriver: false,
    behavior: {
      time_to_submit_ms: 9000,
      pointer_events: 40,
      key_events: 30,
      key_interval_sd_ms: 60,
      paste_count: 0,
    },
    ...overrides,
  };
}

/** POST /api/v1/collect as a browser would (text/plain unless told), from `origin`. */
export async function collect(
  t: TestApp,
  key: string,
  body: unknown,
  {
    origin = SHOP,
    type = "text/plain;charset=UTF-8",
  }: { origin?: string | null; type?: string } = {},
) {
  const response = await fetch(`${t.baseUrl}/api/v1/collect?key=${encodeURIComponent(key)}`, {
    method: "POST",
    headers: { "content-type": type, ...(origin ? { origin } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as {
      token: string;
      expires_at: string;
      error?: { message: string; issues?: { path: string; message: string }[] };
    },
  };
}

/**
 * POST /api/v1/collect with exactly a browser's own headers (User-Agent, Accept-Language,
 * client hints; X-Forwarded-Proto from a proxy) and nothing fetch would add; expects a token.
 */
export async function tokenWithHeaders(
  t: TestApp,
  key: string,
  headers: Record<string, string>,
  body: unknown = humanSignals(),
) {
  const response = await postExact(
    `${t.baseUrl}/api/v1/collect?key=${encodeURIComponent(key)}`,
    { "content-type": "text/plain;charset=UTF-8", origin: SHOP, ...headers },
    JSON.stringify(body),
  );
  expect(response.status, response.text).toBe(200);
  return (JSON.parse(response.text) as { token: string }).token;
}

/** Collects and expects a token. */
export async function tokenFor(t: TestApp, key: string, body: unknown = humanSignals()) {
  const res = await collect(t, key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}
