/**
 * Connecting a merchant's Stripe account: a new secret key is checked against Stripe before
 * it is saved; with an https PUBLIC_URL, Warden registers its own webhook endpoint and keeps
 * the signing secret Stripe returns. Also the history import and the local demo.
 */
import type Stripe from "stripe";
import type { SettingsUpdate, SettingsView } from "../../../shared/schemas/settings.ts";
import { AppError } from "../../lib/app-error.ts";
import { isStripeAnswer, type StripeClientFactory } from "../../lib/stripe-client.ts";
import { randomToken } from "../../lib/tokens.ts";
import type { BlocklistService } from "../blocklist/blocklist.service.ts";
import type { RulesService } from "../rules/rules.service.ts";
import type { SettingsService } from "../settings/settings.service.ts";
import { sendDemoEvents } from "./demo.ts";
import type { ImportJobsRepository } from "./import-jobs.repository.ts";
import { DEMO_POLICY } from "./sample-events.ts";
import { HANDLED_EVENTS, type StripeEventsService } from "./stripe-events.service.ts";

const DAY = 86_400;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

type Deps = {
  settings: SettingsService;
  rules: RulesService;
  blocklist: BlocklistService;
  events: StripeEventsService;
  jobs: ImportJobsRepository;
  stripeFor: StripeClientFactory;
  publicUrl: string;
  webhookUrlFor(accountId: string): Promise<string>;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
};

export function createStripeConnectService(deps: Deps) {
  const { settings, stripeFor, publicUrl, now } = deps;

  async function checkKey(secretKey: string): Promise<void> {
    try {
      await stripeFor(secretKey).balance.retrieve();
    } catch (error) {
      const message = (error as Error).message;
      const reason = isStripeAnswer(error)
        ? `Stripe rejected this key: ${message}`
        : `Could not reach Stripe to check this key: ${message}`;
      throw new AppError("BAD_REQUEST", `stripe_secret: ${reason}`, {
        issues: [{ path: "stripe_secret", message: reason }],
      });
    }
  }

  async function registerEndpoint(accountId: string, secretKey: string): Promise<void> {
    const endpoint = await stripeFor(secretKey).webhookEndpoints.create({
      url: await deps.webhookUrlFor(accountId),
      enabled_events: [...HANDLED_EVENTS] as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
      description: "Warden",
    });
    if (endpoint.secret) await settings.setWebhookSecret(accountId, endpoint.secret);
  }

  return {
    /** Saves settings; a new secret key must pass Stripe's check first. */
    async saveSettings(accountId: string, update: SettingsUpdate): Promise<SettingsView> {
      const newKey = update.stripe_secret;
      if (newKey) await checkKey(newKey);
      const saved = await settings.put(accountId, update);
      if (newKey && publicUrl.startsWith("https:") && !update.stripe_webhook_secret) {
        await registerEndpoint(accountId, newKey);
        return settings.get(accountId);
      }
      return saved;
    },

    /** Starts importing `days` of charges in the background; returns the job. */
    async startImport(accountId: string, days: number) {
      const { secretKey } = await settings.stripeCredentials(accountId);
      if (!secretKey) {
        throw new AppError("BAD_REQUEST", "Add your Stripe secret key in Settings first.");
      }
      const running = await deps.jobs.latest(accountId);
      if (running?.status === "running") return running;
      const job = await deps.jobs.create(accountId, days);
      void this.runImport(accountId, job.id, days, secretKey).catch((error) =>
        deps.log.error({ err: error, jobId: job.id }, "charge import failed"),
      );
      return job;
    },

    importStatus(accountId: string) {
      return deps.jobs.latest(accountId);
    },

    /**
     * Lists charges created in the last `days` through Stripe's list API (auto-paginated) and
     * records each one as a webhook would, without acting on it. Re-running changes nothing.
     */
    async runImport(
      accountId: string,
      jobId: string,
      days: number,
      secretKey: string,
      onProgress?: (imported: number, percent: number) => void,
    ): Promise<number> {
      const since = Math.floor(now().getTime() / 1000) - days * DAY;
      let imported = 0;
      try {
        const list = stripeFor(secretKey).charges.list({
          created: { gte: since },
          limit: 100,
          expand: ["data.customer"],
        });
        for await (const charge of list) {
          await deps.events.ingest(accountId, importEvent(charge), { act: false });
          imported += 1;
          const age = Math.floor(now().getTime() / 1000) - charge.created;
          const percent = Math.min(99, Math.max(0, Math.round((age / (days * DAY)) * 100)));
          onProgress?.(imported, percent);
          if (imported % 25 === 0) await deps.jobs.progress(jobId, imported, percent);
        }
        await deps.jobs.finish(jobId, { imported, status: "done" });
        onProgress?.(imported, 100);
        return imported;
      } catch (error) {
        await deps.jobs.finish(jobId, {
          imported,
          status: "failed",
          error: (error as Error).message,
        });
        throw error;
      }
    },

    /** Sends the sample bundle through this account's webhook URL (local installs only). */
    async loadDemo(accountId: string): Promise<{ sent: number; rulesTurnedOn: boolean }> {
      if (!LOCAL_HOSTS.has(new URL(publicUrl).hostname)) {
        throw new AppError("FORBIDDEN", "Demo data can only be loaded on a local install.");
      }
      let { webhookSecret } = await settings.stripeCredentials(accountId);
      if (!webhookSecret) {
        webhookSecret = `whsec_demo_${randomToken()}`;
        await settings.setWebhookSecret(accountId, webhookSecret);
      }
      // So a newcomer sees the rules act: turn the Standard rules on if none is on yet.
      const rules = await deps.rules.get(accountId);
      const rulesTurnedOn = DEMO_POLICY.rules.every((key) => !rules[key]);
      if (rulesTurnedOn) {
        const on = Object.fromEntries(DEMO_POLICY.rules.map((key) => [key, true]));
        await deps.rules.put(accountId, { ...rules, ...on });
        const blocklist = await deps.blocklist.get(accountId);
        const countries = [...new Set([...blocklist.countries, ...DEMO_POLICY.countries])];
        await deps.blocklist.put(accountId, { ...blocklist, countries });
      }
      const result = await sendDemoEvents({
        url: await deps.webhookUrlFor(accountId),
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

/** A charge from the list API in the shape of an event, with an id that repeats on re-runs. */
function importEvent(charge: Stripe.Charge): Stripe.Event {
  return {
    id: `import_${charge.id}`,
    object: "event",
    api_version: null,
    created: charge.created,
    data: { object: charge },
    livemode: charge.livemode,
    pending_webhooks: 0,
    request: null,
    type: "charge.updated",
  } as unknown as Stripe.Event;
}

export type StripeConnectService = ReturnType<typeof createStripeConnectService>;
