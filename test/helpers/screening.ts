/** A merchant's backend for tests: a secret API key and a client that screens with it. */
import { expect } from "vitest";
import type { ScreenInput, ScreenResult } from "../../shared/schemas/screening.ts";
import { TestClient } from "./http-client.ts";
import type { Merchant } from "./merchants.ts";
import type { TestApp } from "./test-app.ts";

export async function backendOf(t: TestApp, merchant: Merchant, name = "backend") {
  const created = await merchant.api.json<{ id: string; key: string }>("/api/api-keys", {
    body: { name },
  });
  expect(created.status, "API key created").toBe(200);
  const client = new TestClient(t.baseUrl, { authorization: `Bearer ${created.body.key}` });
  return {
    keyId: created.body.id,
    key: created.body.key,
    client,
    /** POST /api/v1/screen; returns status, body and headers. */
    screen(input: ScreenInput | Record<string, unknown>) {
      return client.json<ScreenResult & { error?: { message: string } }>("/api/v1/screen", {
        body: input,
      });
    },
    /** Screens and expects a 200; returns the answer. */
    async decide(input: ScreenInput): Promise<ScreenResult> {
      const res = await client.json<ScreenResult>("/api/v1/screen", { body: input });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
  };
}

export type Backend = Awaited<ReturnType<typeof backendOf>>;

/** Turns rules on over REST (the whole rules object, as the console saves it). */
export async function turnOn(merchant: Merchant, ...keys: string[]) {
  const rules = (await merchant.api.json<Record<string, unknown>>("/api/rules")).body;
  const on = Object.fromEntries(keys.map((key) => [key, true]));
  const put = await merchant.api.json("/api/rules", { method: "PUT", body: { ...rules, ...on } });
  expect(put.status).toBe(200);
}
