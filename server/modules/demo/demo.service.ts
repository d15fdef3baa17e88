/**
 * The demo: sends the demo bundle (demo-events.ts) to a Warden webhook URL, signed with the
 * endpoint's secret, exactly as Stripe would deliver it. Used by `npm run demo` and by the
 * "Load demo data" button of an empty local dashboard (local installs only).
 */
import Stripe from "stripe";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import { AppError } from "../../lib/app-error.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { JsonSettingsService } from "../json-settings/json-settings.service.ts";
import type { SettingsService } from "../settings/settings.service.ts";
import { DEMO_POLICY, demoEvents } from "./demo-events.ts";

const signer = new Stripe("sk_signing_only", { telemetry: false });

export type DemoResult = { sent: number; failed: { eventId: string; status: number }[] };

export async function sendDemoEvents(options: {
  url: string;
  secret: string;
  now?: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<DemoResult> {
  const events = demoEvents(options.now);
  const failed: DemoResult["failed"] = [];
  let done = 0;
  for (const event of events) {
    const payload = JSON.stringify(event);
    const response = await fetch(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signer.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret,
        }),
      },
      body: payload,
    });
    await response.arrayBuffer();
    if (!response.ok) failed.push({ eventId: event.id, status: response.status });
    options.onProgress?.(++done, events.length);
  }
  return { sent: events.length - failed.length, failed };
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

type Deps = {
  settings: Pick<SettingsService, "stripeCredentials" | "setWebhookSecret">;
  rules: JsonSettingsService<Rules>;
  blocklist: {
    get(accountId: string): Promise<Blocklist>;
    put(accountId: string, list: Blocklist): Promise<Blocklist>;
  };
  webhookUrlFor(accountId: string): Promise<string>;
  publicUrl: string;
};

export function createDemoService({ settings, rules, blocklist, webhookUrlFor, publicUrl }: Deps) {
  return {
    /** Sends the demo bundle through this account's webhook URL (local installs only). */
    async load(accountId: string): Promise<{ sent: number; rulesTurnedOn: boolean }> {
      if (!LOCAL_HOSTS.has(new URL(publicUrl).hostname)) {
        throw new AppError("FORBIDDEN", "Demo data can only be loaded on a local install.");
      }
      let { webhookSecret } = await settings.stripeCredentials(accountId);
      if (!webhookSecret) {
        webhookSecret = `whsec_demo_${randomToken()}`;
        await settings.setWebhookSecret(accountId, webhookSecret);
      }
      // So a newcomer sees the rules act: turn the Standard rules on if none is on yet.
      const current = await rules.get(accountId);
      const rulesTurnedOn = DEMO_POLICY.rules.every((key) => !current[key]);
      if (rulesTurnedOn) {
        const on = Object.fromEntries(DEMO_POLICY.rules.map((key) => [key, true]));
        await rules.put(accountId, { ...current, ...on });
        const list = await blocklist.get(accountId);
        const countries = [...new Set([...list.countries, ...DEMO_POLICY.countries])];
        await blocklist.put(accountId, { ...list, countries });
      }
      const result = await sendDemoEvents({
        url: await webhookUrlFor(accountId),
        secret: webhookSecret,
      });
      if (result.failed.length > 0) {
        throw new AppError(
          "INTERNAL",
          `Demo events were refused: ${JSON.stringify(result.failed[0])}`,
        );
      }
      return { sent: result.sent, rulesTurnedOn };
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
