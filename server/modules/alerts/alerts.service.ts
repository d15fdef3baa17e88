/**
 * Alerts a merchant sets (issue 45): what each watches, measured every minute against its
 * threshold or its baseline (measure.ts); fired once, by whichever instance wins the
 * compare-and-set, then quiet for its cool-down; resolved with a message when its series is
 * back. Each event is told by email (the outbox), as a signed `alert.fired` or
 * `alert.resolved` webhook event (the webhooks' outbox, same transaction) and to a
 * Slack-compatible incoming-webhook URL (posted after the commit, through the webhooks'
 * address guard; the answer is kept with the event).
 */
import {
  type AlertEventView,
  type AlertInput,
  type AlertPoint,
  type AlertSettings,
  type AlertView,
  MAX_ALERTS,
  ZAlertInput,
} from "../../../shared/schemas/alerts.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Encryptor } from "../../lib/encryption.ts";
import type { Rollups } from "../baselines/baselines.entry.ts";
import type { BaselinesRepository } from "../baselines/baselines.repository.ts";
import { endpointProblem, type WebhookSender } from "../webhooks/webhooks.entry.ts";
import type { EventOutbox } from "../webhooks/webhooks.types.ts";
import type { AlertData, AlertRow, AlertsRepository, Deliveries } from "./alerts.repository.ts";
import { measure, type Reading } from "./measure.ts";

const EVERY_MS = 60_000;
const EVENTS_SHOWN = 100;

const sealFor = (accountId: string) => `alert-slack:${accountId}`;

/** Metrics that can fire without any screening: measured for every account. */
const WITHOUT_TRAFFIC = new Set(["review_oldest", "webhook_failing"]);

/** What the console shows of a Slack URL: its host and its last four characters. */
export function slackHint(url: string): string {
  const { host } = new URL(url);
  return `${host}/…${url.slice(-4)}`;
}

export function createAlertsService(deps: {
  repo: AlertsRepository;
  baselines: BaselinesRepository;
  rollups?: Pick<Rollups, "flush">;
  encryptor: Encryptor;
  events: Pick<EventOutbox, "stage" | "kick">;
  /** Wakes the email outbox's worker after an event's emails are committed. */
  mailKick: () => void;
  send: WebhookSender;
  allowPrivate: boolean;
  publicUrl: string;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
  everyMs?: number;
}) {
  const { repo, encryptor, now } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const sources = {
    baselines: deps.baselines,
    oldestOpenReview: repo.oldestOpenReview,
    longestFailingEndpoint: repo.longestFailingEndpoint,
  };

  /** The row's columns from the merchant's settings; a Slack URL checked, sealed and hinted. */
  async function dataOf(
    accountId: string,
    input: AlertSettings,
    at: string,
    kept: AlertRow | null,
  ): Promise<AlertData> {
    let slackCipher = kept?.slackCipher ?? null;
    let slackHintText = kept?.slackHint ?? null;
    if (input.slack_url === "" || input.slack_url === null) {
      slackCipher = null;
      slackHintText = null;
    } else if (input.slack_url !== undefined) {
      const problem = await endpointProblem(input.slack_url, deps.allowPrivate);
      if (problem) {
        throw new AppError("BAD_REQUEST", `${at}slack_url: ${problem}`, {
          issues: [{ path: `${at}slack_url`, message: problem }],
        });
      }
      slackCipher = encryptor.seal(input.slack_url, sealFor(accountId));
      slackHintText = slackHint(input.slack_url);
    }
    return {
      name: input.name,
      metric: input.metric,
      mode: input.metric === "series_spike" ? "spike" : input.mode,
      rule: input.metric === "rule_hits" ? input.rule : null,
      series: input.metric === "series_spike" ? input.series : null,
      threshold: input.mode === "threshold" ? input.threshold : null,
      windowMinutes: input.window_minutes,
      cooldownMinutes: input.cooldown_minutes,
      email: input.email,
      webhook: input.webhook,
      slackCipher,
      slackHint: slackHintText,
      enabled: input.enabled,
    };
  }

  /** The emails, webhook events and Slack text of one event of `alert`. */
  async function deliveriesOf(
    alert: AlertRow,
    kind: "fired" | "resolved" | "test",
    reading: Pick<Reading, "value" | "usual" | "message">,
    at: Date,
  ): Promise<Deliveries & { slack: string | null }> {
    const title =
      kind === "fired"
        ? `Warden alert: ${alert.name}`
        : kind === "resolved"
          ? `Resolved: ${alert.name}`
          : `Test of the alert: ${alert.name}`;
    const link = `${deps.publicUrl}/homepage/alerts`;
    const emails = alert.email
      ? (await repo.recipients(alert.accountId)).map((to) => ({
          to,
          subject: title,
          text: `${title}\n\n${capital(reading.message)}.\n\nAt ${at.toISOString()}. See ${link}\n`,
        }))
      : [];
    const events =
      alert.webhook && kind !== "test"
        ? [
            {
              type: kind === "fired" ? ("alert.fired" as const) : ("alert.resolved" as const),
              data: {
                alert: { id: alert.id, name: alert.name, metric: alert.metric, mode: alert.mode },
                value: reading.value,
                usual: reading.usual,
                message: reading.message,
                at: at.toISOString(),
              },
            },
          ]
        : [];
    const icon =
      kind === "fired" ? ":rotating_light:" : kind === "resolved" ? ":white_check_mark:" : ":bell:";
    return {
      emails,
      events,
      outbox: deps.events,
      slack: alert.slackCipher
        ? JSON.stringify({
            text: `${icon} *${title}*: ${capital(reading.message)}. <${link}|Open in Warden>`,
          })
        : null,
    };
  }

  /** After the commit: wakes the outboxes and posts to Slack; what each channel answered. */
  async function sent(
    alert: AlertRow,
    eventId: string,
    deliveries: Deliveries & { slack: string | null },
  ): Promise<Record<string, string>> {
    const delivered: Record<string, string> = {
      email: alert.email ? `queued to ${deliveries.emails.length}` : "off",
      webhook: deliveries.events.length > 0 ? "queued" : "off",
      slack: "off",
    };
    if (deliveries.emails.length > 0) deps.mailKick();
    if (deliveries.events.length > 0) deps.events.kick();
    if (deliveries.slack && alert.slackCipher) {
      let url: string | null = null;
      try {
        url = encryptor.open(alert.slackCipher, sealFor(alert.accountId));
      } catch {
        delivered.slack = "the stored URL could not be opened: set it again";
      }
      if (url) {
        const result = await deps.send(url, deliveries.slack, {});
        delivered.slack = result.error ? `failed: ${result.error}` : `sent (HTTP ${result.status})`;
      }
    }
    await repo.setDelivered(eventId, delivered);
    return delivered;
  }

  async function evaluateAlert(alert: AlertRow, at: Date) {
    const reading = await measure(sources, alert.accountId, alert, at);
    const event = {
      value: reading.value,
      usual: reading.usual,
      message: reading.message,
      points: reading.points,
    };
    if (reading.on) {
      // Already firing, or quiet for its cool-down, as the row read this minute says: nothing
      // to send (the compare-and-set in `fire` still decides between instances).
      const cooled = at.getTime() - alert.cooldownMinutes * 60_000;
      if (alert.firing || (alert.lastFiredAt && alert.lastFiredAt.getTime() > cooled)) return;
      const deliveries = await deliveriesOf(alert, "fired", reading, at);
      const row = await repo.fire(alert, at, event, deliveries);
      if (row) await sent(alert, row.id, deliveries);
    } else if (alert.firing) {
      const deliveries = await deliveriesOf(alert, "resolved", reading, at);
      const row = await repo.resolve(alert, at, event, deliveries);
      if (row) await sent(alert, row.id, deliveries);
    }
  }

  const service = {
    async list(accountId: string): Promise<AlertView[]> {
      return (await repo.list(accountId)).map(alertView);
    },

    async create(accountId: string, raw: AlertInput): Promise<AlertView> {
      const input = ZAlertInput.parse(raw);
      const row = await repo.create(
        accountId,
        await dataOf(accountId, input, "", null),
        MAX_ALERTS,
      );
      if (!row) {
        throw new AppError(
          "BAD_REQUEST",
          `An account can have at most ${MAX_ALERTS} alerts: remove one to add another.`,
        );
      }
      return alertView(row);
    },

    async update(accountId: string, id: string, raw: AlertInput): Promise<AlertView> {
      const input = ZAlertInput.parse(raw);
      const kept = await repo.find(accountId, id);
      if (!kept) throw new AppError("NOT_FOUND", "No such alert.");
      const row = await repo.update(accountId, id, await dataOf(accountId, input, "alert.", kept));
      if (!row) throw new AppError("NOT_FOUND", "No such alert.");
      return alertView(row);
    },

    async remove(accountId: string, id: string): Promise<{ ok: true }> {
      if (!(await repo.remove(accountId, id))) throw new AppError("NOT_FOUND", "No such alert.");
      return { ok: true };
    },

    async events(accountId: string): Promise<{ events: AlertEventView[] }> {
      return { events: (await repo.events(accountId, EVENTS_SHOWN)).map(eventView) };
    },

    /** Sends a test message of the alert to its channels (email and Slack; no webhook event). */
    async test(accountId: string, id: string): Promise<AlertEventView> {
      const alert = await repo.find(accountId, id);
      if (!alert) throw new AppError("NOT_FOUND", "No such alert.");
      const at = now();
      const reading = await measure(sources, accountId, alert, at);
      const message = `a test: ${reading.message}`;
      const deliveries = await deliveriesOf(alert, "test", { ...reading, message }, at);
      const row = await repo.test(
        alert,
        at,
        { value: reading.value, usual: reading.usual, message, points: reading.points },
        deliveries,
      );
      const delivered = await sent(alert, row.id, deliveries);
      return eventView({ ...row, delivered });
    },

    /** Measures every enabled alert of every account (or of one) once, firing and resolving. */
    async evaluate(accountId?: string): Promise<void> {
      await deps.rollups
        ?.flush()
        .catch((error) => deps.log.warn({ err: error }, "baseline flush failed"));
      const at = now();
      const accounts = accountId ? [accountId] : await repo.accountsWithAlerts();
      // An account without traffic for a day has no series to measure: only its review queue
      // and webhook endpoints, and the alerts still firing (to resolve them). An instance of
      // many quiet accounts measures them with a query or two each, not a dozen.
      const active = await deps.baselines.activeAccounts(Math.floor(at.getTime() / 60_000) - 1440);
      for (const account of accounts) {
        for (const alert of await repo.enabled(account)) {
          if (!active.has(account) && !alert.firing && !WITHOUT_TRAFFIC.has(alert.metric)) continue;
          try {
            await evaluateAlert(alert, at);
          } catch (error) {
            deps.log.warn({ err: error, alert: alert.id }, "alert not evaluated");
          }
        }
      }
    },

    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = service
          .evaluate()
          .catch((error) => deps.log.warn({ err: error }, "alerts not evaluated"))
          .finally(() => {
            running = null;
          });
      }, deps.everyMs ?? EVERY_MS);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
  return service;
}

function alertView(row: AlertRow): AlertView {
  return {
    id: row.id,
    name: row.name,
    metric: row.metric as AlertView["metric"],
    mode: row.mode as AlertView["mode"],
    rule: row.rule,
    series: row.series as AlertView["series"],
    threshold: row.threshold,
    window_minutes: row.windowMinutes,
    cooldown_minutes: row.cooldownMinutes,
    email: row.email,
    webhook: row.webhook,
    slack_url_hint: row.slackHint,
    enabled: row.enabled,
    firing: row.firing,
    last_fired_at: row.lastFiredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function eventView(row: {
  id: string;
  alertId: string | null;
  alertName: string;
  kind: string;
  at: Date;
  value: number;
  usual: number | null;
  message: string;
  points: unknown;
  delivered: unknown;
}): AlertEventView {
  return {
    id: row.id,
    alert_id: row.alertId,
    alert_name: row.alertName,
    kind: row.kind as AlertEventView["kind"],
    at: row.at.toISOString(),
    value: row.value,
    usual: row.usual,
    message: row.message,
    points: (Array.isArray(row.points) ? row.points : []) as AlertPoint[],
    delivered: (row.delivered ?? {}) as Record<string, string>,
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export type AlertsService = ReturnType<typeof createAlertsService>;
