/**
 * The demo: sends the demo bundle (demo-events.ts) to a Warden webhook URL, signed with the
 * endpoint's secret, exactly as Stripe would deliver it. Used by `npm run demo` and by the
 * "Load demo data" button of an empty local dashboard (local installs only), which first says
 * what loading does (preview), records the settings it changes, and can remove it all again
 * (remove): its rows, and the settings it changed that the merchant has not changed since.
 * Demo charges never reach the merchant's decision webhooks (labels.service.ts, the action
 * outbox: their events are not stored).
 */
import Stripe from "stripe";
import { COUNTRIES } from "../../../shared/catalog/countries.ts";
import { RULE_CATALOG } from "../../../shared/catalog/rules.ts";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import type { DemoPreview, DemoRemoved } from "../../../shared/schemas/demo.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import { AppError } from "../../lib/app-error.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { JsonSettingsService } from "../json-settings/json-settings.service.ts";
import type { SettingsService } from "../settings/settings.service.ts";
import type { DemoRepository } from "./demo.repository.ts";
import { DEMO_POLICY, demoBundleFigures, demoEvents } from "./demo-events.ts";

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
  repo: DemoRepository;
  settings: Pick<SettingsService, "stripeCredentials" | "setWebhookSecret">;
  rules: JsonSettingsService<Rules>;
  blocklist: {
    get(accountId: string): Promise<Blocklist>;
    put(accountId: string, list: Blocklist): Promise<Blocklist>;
  };
  webhookUrlFor(accountId: string): Promise<string>;
  publicUrl: string;
  now: () => Date;
};

const ruleNamed = (key: string) => ({
  key,
  label: RULE_CATALOG.find((rule) => rule.key === key)?.label ?? key,
});
const countryNamed = (code: string) => ({
  key: code,
  label: COUNTRIES.find((country) => country.code === code)?.name ?? code,
});

/** Two values alike key by key, whatever the keys' order (settings read back from JSON). */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

export function createDemoService(deps: Deps) {
  const { repo, settings, rules, blocklist, webhookUrlFor, publicUrl, now } = deps;
  const local = () => LOCAL_HOSTS.has(new URL(publicUrl).hostname);

  /** The rules and countries a load would change now (the rules only when none is on yet). */
  async function planned(accountId: string) {
    const current = await rules.get(accountId);
    const turnOn = DEMO_POLICY.rules.every((key) => !current[key]) ? [...DEMO_POLICY.rules] : [];
    const list = await blocklist.get(accountId);
    const block = turnOn.length
      ? DEMO_POLICY.countries.filter((code) => !list.countries.includes(code))
      : [];
    return { current, list, turnOn, block };
  }

  /** Puts back the rules the demo turned on, if the rules are as the demo left them. */
  async function restoreRules(accountId: string, turnedOn: string[], after: object | null) {
    if (turnedOn.length === 0 || !after) return { restored: [], left: [] };
    const current = await rules.get(accountId);
    if (!sameValues(current, after as Record<string, unknown>)) {
      return { restored: [], left: turnedOn.filter((key) => current[key as keyof Rules]) };
    }
    const off = Object.fromEntries(turnedOn.map((key) => [key, false]));
    await rules.put(accountId, { ...current, ...off });
    return { restored: turnedOn, left: [] };
  }

  /** Takes the demo's countries off the block list, if the list is as the demo left it. */
  async function restoreCountries(accountId: string, added: string[], after: string[]) {
    if (added.length === 0) return { restored: [], left: [] };
    const list = await blocklist.get(accountId);
    if (!sameSet(list.countries, after)) {
      return { restored: [], left: added.filter((code) => list.countries.includes(code)) };
    }
    const countries = list.countries.filter((code) => !added.includes(code));
    await blocklist.put(accountId, { ...list, countries });
    return { restored: added, left: [] };
  }

  return {
    /** What loading would do now, and how much demo data the account holds (confirm step). */
    async preview(accountId: string): Promise<DemoPreview> {
      const { turnOn, block } = await planned(accountId);
      const { webhookSecret } = await settings.stripeCredentials(accountId);
      return {
        canLoad: local(),
        adds: demoBundleFigures(demoEvents(Math.floor(now().getTime() / 1000))),
        turnsOn: turnOn.map(ruleNamed),
        blocks: block.map(countryNamed),
        setsSigningSecret: !webhookSecret,
        loadedCharges: await repo.loadedCharges(accountId),
      };
    },

    /** Sends the demo bundle through this account's webhook URL (local installs only). */
    async load(accountId: string): Promise<{ sent: number; rulesTurnedOn: boolean }> {
      if (!local()) {
        throw new AppError("FORBIDDEN", "Demo data can only be loaded on a local install.");
      }
      let { webhookSecret } = await settings.stripeCredentials(accountId);
      if (!webhookSecret) {
        webhookSecret = `whsec_demo_${randomToken()}`;
        await settings.setWebhookSecret(accountId, webhookSecret);
      }
      // So a newcomer sees the rules act: turn the Standard rules on if none is on yet, and
      // remember what changed, so removing the demo can put it back.
      const { current, list, turnOn, block } = await planned(accountId);
      if (turnOn.length > 0) {
        const on = Object.fromEntries(turnOn.map((key) => [key, true]));
        const rulesAfter = await rules.put(accountId, { ...current, ...on });
        const countries = [...list.countries, ...block];
        const listAfter = await blocklist.put(accountId, { ...list, countries });
        await repo.recordChanges(
          accountId,
          {
            rulesTurnedOn: turnOn,
            rulesAfter,
            countriesAdded: block,
            countriesAfter: listAfter.countries,
          },
          now(),
        );
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
      return { sent: result.sent, rulesTurnedOn: turnOn.length > 0 };
    },

    /**
     * Deletes every demo row in one transaction, then puts back the rules and countries the
     * demo changed, unless the merchant changed those settings since (then says what stays).
     */
    async remove(accountId: string): Promise<DemoRemoved> {
      const removed = await repo.removeRows(accountId);
      const changes = await repo.changes(accountId);
      const ruleChanges = await restoreRules(
        accountId,
        changes?.rulesTurnedOn ?? [],
        changes?.rulesAfter ?? null,
      );
      const countryChanges = await restoreCountries(
        accountId,
        changes?.countriesAdded ?? [],
        changes?.countriesAfter ?? [],
      );
      await repo.forgetChanges(accountId);
      return {
        removed,
        restored: {
          rules: ruleChanges.restored.map(ruleNamed),
          countries: countryChanges.restored.map(countryNamed),
        },
        left: {
          rules: ruleChanges.left.map(ruleNamed),
          countries: countryChanges.left.map(countryNamed),
        },
      };
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
