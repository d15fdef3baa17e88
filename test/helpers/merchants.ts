/**
 * "A signed-in merchant" for integration and browser tests: signs up, confirms through the
 * emailed link, and logs in, giving both a cookie client (like the browser, for tRPC) and a
 * bearer token (like a script, for REST).
 */
import { expect } from "vitest";
import { TestClient } from "./http-client.ts";
import { linkIn } from "./smtp.ts";
import type { TestApp } from "./test-app.ts";

export const MERCHANT_PASSWORD = "correct horse battery";

export type Merchant = Awaited<ReturnType<typeof signedInMerchant>>;

export async function signedInMerchant(t: TestApp, email: string, password = MERCHANT_PASSWORD) {
  const browser = new TestClient(t.baseUrl);
  const signup = await browser.mutate("auth.signup", { email, password });
  expect(signup, `signup of ${email}`).toMatchObject({ ok: true });
  const link = linkIn(await t.smtp.waitFor(email, "Confirm"), "/confirm-email");
  const confirmed = await browser.mutate("auth.confirmEmail", {
    tokenHash: link.searchParams.get("tokenHash"),
    email: link.searchParams.get("email"),
  });
  expect(confirmed, `confirmation of ${email}`).toMatchObject({ ok: true });
  const login = await browser.mutate("auth.login", { email, password });
  expect(login, `login of ${email}`).toMatchObject({ ok: true });

  const rest = await new TestClient(t.baseUrl, {}).json<{ token: string }>("/api/auth/login", {
    body: { email, password },
  });
  expect(rest.status, `REST login of ${email}`).toBe(200);
  const token = rest.body.token;
  const user = await t.prisma.user.findUniqueOrThrow({ where: { email } });
  return {
    email,
    password,
    accountId: user.accountId,
    /** Cookie-authenticated, same-origin: what the console uses. */
    browser,
    /** The session token for `Authorization: Bearer`. */
    token,
    /** A client with no cookies that sends the bearer token on every request. */
    api: new TestClient(t.baseUrl, { authorization: `Bearer ${token}` }),
  };
}
