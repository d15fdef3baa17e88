/**
 * "One trial per device": the merchant's choice for a second account's trial on a device
 * (rule_ip.second_trial_on_device, review by default or block), through real HTTP on both
 * databases. Both update paths (PUT /api/rule-settings with a bearer token, ruleSettings.put
 * with the console's cookie) refuse a bad value with a 400 naming the field and store nothing;
 * a good one is stored, read back by both, carried by the audit log, and screenings follow it.
 */
import { describe, expect, it } from "vitest";
import type { AuditPage } from "../../shared/schemas/audit.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";
import { trialFrom } from "./trials.ts";

type Issue = { path: string; message: string };
type RuleIp = { action: string; mode: string; window_days: number; second_trial_on_device: string };

describe.each(DB_KINDS)("the second trial on a device, reviewed or blocked (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  const ruleIp = async (merchant: Merchant) =>
    (await merchant.api.json<{ rule_ip: RuleIp }>("/api/rule-settings")).body.rule_ip;

  it("reviews by default, and both update paths refuse a value that is neither, naming the field", async () => {
    const merchant = await signedInMerchant(t, `choice-bad-${kind}@example.com`);
    expect(await ruleIp(merchant)).toEqual({
      action: "block",
      mode: "live",
      window_days: 365,
      second_trial_on_device: "review",
    });
    for (const bad of ["deny", "Block", "", null, true, 2]) {
      const rest = await merchant.api.json<{ error: { issues: Issue[] } }>("/api/rule-settings", {
        method: "PUT",
        body: { rule_ip: { second_trial_on_device: bad } },
      });
      expect(rest.status, JSON.stringify(bad)).toBe(400);
      expect(rest.body.error.issues).toEqual([
        { path: "rule_ip.second_trial_on_device", message: "must be review or block" },
      ]);
      const trpc = await merchant.browser.mutate("ruleSettings.put", {
        rule_ip: { second_trial_on_device: bad },
      });
      expect(trpc.ok).toBe(false);
      if (trpc.ok) return;
      expect(trpc.status).toBe(400);
      expect(trpc.error.data.issues).toEqual([
        { path: "rule_ip.second_trial_on_device", message: "must be review or block" },
      ]);
    }
    expect((await ruleIp(merchant)).second_trial_on_device).toBe("review");
  });

  it("stores block, reads it back through both paths, keeps the other fields and audits it", async () => {
    const merchant = await signedInMerchant(t, `choice-round-${kind}@example.com`);
    await merchant.api.json("/api/rule-settings", {
      method: "PUT",
      body: { rule_ip: { window_days: 30 } },
    });
    // The audit log lists newest first by time: this change a second after sign-in's.
    t.clock.advance(1000);
    const put = await merchant.api.json<{ rule_ip: RuleIp }>("/api/rule-settings", {
      method: "PUT",
      body: { rule_ip: { second_trial_on_device: "block" } },
    });
    expect(put.status).toBe(200);
    const expected = {
      action: "block",
      mode: "live",
      window_days: 30,
      second_trial_on_device: "block",
    };
    expect(put.body.rule_ip).toEqual(expected);
    expect(await ruleIp(merchant)).toEqual(expected);
    const viaConsole = await merchant.browser.query<{ rule_ip: RuleIp }>("ruleSettings.get");
    expect(viaConsole.ok && viaConsole.data.rule_ip).toEqual(expected);
    const effective = await merchant.browser.query<{ settings: { rule_ip: RuleIp } }>(
      "ruleSettings.effective",
    );
    expect(effective.ok && effective.data.settings.rule_ip).toEqual(expected);

    const audit = await merchant.api.json<AuditPage>("/api/audit?action=ruleSettings.&limit=1");
    expect(audit.body.items[0]).toMatchObject({
      action: "ruleSettings.put",
      before: { rule_ip: { second_trial_on_device: "review" } },
      after: { rule_ip: { second_trial_on_device: "block" } },
    });

    // And back through the console's path.
    const back = await merchant.browser.mutate<{ rule_ip: RuleIp }>("ruleSettings.put", {
      rule_ip: { second_trial_on_device: "review" },
    });
    expect(back.ok && back.data.rule_ip).toEqual({ ...expected, second_trial_on_device: "review" });
    expect(await ruleIp(merchant)).toEqual({ ...expected, second_trial_on_device: "review" });
  });

  it("with block, One Human One Trial blocks the second account's trial on a device, naming the choice", async () => {
    const merchant = await signedInMerchant(t, `choice-screen-${kind}@example.com`);
    const templates = await merchant.api.json<Record<string, boolean>>("/api/templates");
    await merchant.api.json("/api/templates", {
      method: "PUT",
      body: { ...templates.body, template_one_human_one_trial: true },
    });
    const put = await merchant.browser.mutate("ruleSettings.put", {
      rule_ip: { second_trial_on_device: "block" },
    });
    expect(put.ok).toBe(true);
    const backend = await backendOf(t, merchant);
    const first = await trialFrom(backend, "dev-7", "a@example.com", "198.51.100.1");
    expect(first.decision).toBe("allow");
    const second = await trialFrom(backend, "dev-7", "b@example.com", "198.51.100.2");
    // The template's score may add its own reason after the rule's.
    expect(second.decision).toBe("block");
    expect(second.reasons[0]).toEqual({
      rule: "rule_ip",
      action: "block",
      message:
        "a second account's trial on this device (dev-7) in 365 days: 1 other account before it (limit: one trial per device; you chose to block a second account's trial on a device)",
      observed: 2,
      limit: 1,
    });
  });
});
