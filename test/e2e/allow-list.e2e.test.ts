import { describe, expect, it } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { useConsole } from "../helpers/console-browser.ts";
import { backendOf, turnOn } from "../helpers/screening.ts";

describe("allow list in Chromium", () => {
  const c = useConsole("allow-list-console@example.com");

  const open = async (path: string, heading: string) => {
    await c.page.goto(`${c.t.baseUrl}/homepage/${path}`);
    await c.page.getByRole("heading", { name: heading, exact: true }).first().waitFor();
  };

  it("refuses a range wider than a /16 and lists a narrower one", async () => {
    await open("block-lists", "Allow list");
    const form = c.page.getByRole("form", { name: "Add to the allow list" });
    await form.getByLabel("Kind").selectOption("ip_cidr");
    await form.getByLabel("Value").fill("0.0.0.0/0");
    const refused = c.page.waitForResponse((r) => r.url().includes("/trpc/allowList.add"));
    await form.getByRole("button", { name: "Allow" }).click();
    expect((await refused).status()).toBe(400);
    await c.page
      .getByRole("alert")
      .getByText("must not be wider than /16 for IPv4", { exact: false })
      .waitFor();
    await screenshot(c.page, "allow-list-wide-range");

    await form.getByLabel("Value").fill("203.0.113.0/24");
    await form.getByRole("button", { name: "Allow" }).click();
    await c.page
      .getByRole("list", { name: "Allowed values" })
      .getByText("203.0.113.0/24")
      .waitFor();
  });

  it("names the entry that allowed a screening, who added it and when", async () => {
    await turnOn(c.merchant, "rule_email");
    const added = await c.merchant.browser.mutate<{ created_at: string }>("allowList.add", {
      kind: "user_id",
      value: "vip-1",
    });
    expect(added).toMatchObject({ ok: true });
    const backend = await backendOf(c.t, c.merchant);
    const answer = await backend.decide({
      type: "signup",
      user_id: "vip-1",
      email: "vip@mailinator.com",
      ip: "198.51.100.9",
    });
    expect(answer.allowed?.kind).toBe("user_id");

    await open("screenings", "Screenings");
    const row = c.page.locator(`tbody tr[data-screening="${answer.id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-cell="decision"]').innerText()).toBe("Allowed");
    expect(await row.locator(".sc-rules").innerText()).toContain("(allow list)");
    expect(await row.locator(".sc-rules").innerText()).not.toContain("(monitor)");
    await row.getByRole("button").click();
    const day = (added as { data: { created_at: string } }).data.created_at.slice(0, 10);
    const entry = c.page.locator('[data-allowed="user_id"]');
    expect(await entry.innerText()).toContain(
      `Allowed by the allow list: user id vip-1, added by ${c.merchant.email} on ${day}`,
    );
    const monitored = c.page.getByRole("list", { name: "Monitored rules" });
    expect(await monitored.locator('[data-rule="rule_email"]').innerText()).toContain(
      "would have blocked — allowed by user id vip-1",
    );
    await screenshot(c.page, "allow-list-screening");
  });
});
