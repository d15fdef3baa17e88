/** A user who signed up and confirmed through the emailed link, logged in on a cookie client. */
import { expect } from "vitest";
import { MESSAGES } from "../../shared/messages.ts";
import { TestClient } from "./http-client.ts";
import { linkIn } from "./smtp.ts";
import type { TestApp } from "./test-app.ts";

/** Signs up and confirms through the emailed link; returns a logged-in client. */
export async function confirmedUser(t: TestApp, email: string, password = "correct horse battery") {
  const c = new TestClient(t.baseUrl);
  expect((await c.mutate("auth.signup", { email, password })).ok).toBe(true);
  const mail = await t.smtp.waitFor(email, "Confirm");
  const link = linkIn(mail, "/confirm-email");
  const confirmed = await c.mutate("auth.confirmEmail", {
    tokenHash: link.searchParams.get("tokenHash"),
    email: link.searchParams.get("email"),
  });
  expect(confirmed).toMatchObject({ ok: true, data: { message: MESSAGES.emailConfirmed } });
  const login = await c.mutate("auth.login", { email, password });
  expect(login.ok).toBe(true);
  return c;
}
