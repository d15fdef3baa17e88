/**
 * buildApp(config): the whole server without listening: the database, the services, the
 * Stripe action worker and hourly housekeeping, then the plugins in order (session, tRPC,
 * REST, Stripe webhooks, the client). main.ts listens; tests listen on an ephemeral port.
 */
import { resolve } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./db/database.ts";
import { createEncryptor, loadOrCreateKeyFile } from "./lib/encryption.ts";
import {
  chooseLogFormat,
  loggerOptions,
  newRequestId,
  OneLinePerRequest,
  requestLogger,
} from "./lib/logger.ts";
import { createMailer, type Mailer } from "./lib/mailer.ts";
import { createStripeClientFactory } from "./lib/stripe-client.ts";
import { createServices, type Services } from "./services.ts";
import { toPublicError } from "./transport/errors.ts";
import { clientPlugin } from "./transport/http/client.plugin.ts";
import { clientPackagePlugin } from "./transport/http/client-package.plugin.ts";
import { drainRequest } from "./transport/http/drain.ts";
import { livePlugin } from "./transport/http/live.plugin.ts";
import { metricsPlugin } from "./transport/http/metrics.plugin.ts";
import { requestContextPlugin } from "./transport/http/request-context.plugin.ts";
import { securityHeadersPlugin } from "./transport/http/security-headers.plugin.ts";
import { sessionPlugin } from "./transport/http/session.plugin.ts";
import { restPlugin } from "./transport/rest/rest.plugin.ts";
import { trpcPlugin } from "./transport/trpc/trpc.plugin.ts";
import { stripeWebhookPlugin } from "./transport/webhooks/stripe-webhook.plugin.ts";

const HOUSEKEEPING_MS = 60 * 60 * 1000;

export const CLIENT_DIR = resolve(import.meta.dirname, "../dist/client");
/** A migrated embedded data dir, written at build time (scripts/ensure-build.mjs). */
const DB_TEMPLATE = resolve(import.meta.dirname, "../dist/db-template");

export type BuildOptions = {
  /** An already-open database, which the caller closes; otherwise opened from the config. */
  database?: Database;
  mailer?: Mailer;
  now?: () => Date;
  clientDir?: string;
  /** Carry out decided Stripe actions in this process (default true; tests may hold them). */
  runStripeActions?: boolean;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Called for every route as it is registered (the fuzz suite walks Fastify's route list). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
};

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
    database: Database;
  }
}

export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    // Never log credentials: no headers, no query strings, secret fields censored (logger.ts).
    logger: await loggerOptions({
      level: config.logLevel,
      format: chooseLogFormat(
        config.logFormat,
        !options.logStream && process.stdout.isTTY === true,
      ),
      stream: options.logStream,
    }),
    genReqId: newRequestId,
    childLoggerFactory: requestLogger,
    logController: new OneLinePerRequest(),
    // A hop count, as Fastify's docs describe it: trust the n proxies nearest to us.
    trustProxy:
      typeof config.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 5000 },
  });

  // First, so that every later hook and handler logs with the request's id.
  await app.register(requestContextPlugin);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  const { onRoute } = options;
  if (onRoute) app.addHook("onRoute", (route) => onRoute(route));

  const database =
    options.database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: "postgres", url: config.databaseUrl }
        : {
            kind: "embedded",
            dataDir: config.dataDir,
            template: DB_TEMPLATE,
          },
    ));
  if (database.applied.length > 0) {
    app.log.info({ migrations: database.applied }, "applied database migrations");
  }
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log: app.log,
    });
  const changes = database.openChangeFeed(app.log);
  const services = createServices({
    prisma: database.prisma,
    sql: database.sql,
    screeningSql: database.screeningSql,
    poolStats: () => database.poolStats(),
    databaseUrl: database.url,
    changes,
    mailer,
    publicUrl: config.publicUrl,
    socialUrl: config.socialUrl,
    encryptor: createEncryptor(config.encryptionKey ?? (await loadOrCreateKeyFile(config.dataDir))),
    stripeFor: createStripeClientFactory(config.stripeApiBase),
    screening: {
      retentionDays: config.screeningRetentionDays,
      ratePerMinute: config.screenRateLimit,
    },
    collectPerIpPerMinute: config.collectRateLimit,
    webhooksAllowPrivate: config.webhooksAllowPrivate,
    webhookEndpointsPerAccount: config.webhookEndpointsPerAccount,
    webhookDeliveryRetentionDays: config.webhookDeliveryRetentionDays,
    collectTokensPerKey: config.collectTokensPerKey,
    alertsEveryMs: config.alertsEverySeconds * 1000,
    log: app.log,
    now: options.now ?? (() => new Date()),
  });
  app.decorate("services", services);
  app.decorate("database", database);
  if (options.runStripeActions !== false) services.stripeActions.start();
  services.outbox.start();
  services.webhooks.start();
  services.rollups.start();
  services.alerts.start();
  const housekeeping = setInterval(() => void purge(), HOUSEKEEPING_MS);
  housekeeping.unref();
  async function purge() {
    try {
      const removed = await services.housekeeping.purgeExpired();
      app.log.debug({ removed }, "purged expired sessions, tokens and counters");
    } catch (error) {
      app.log.warn({ err: error }, "housekeeping failed; will try again");
    }
  }
  app.addHook("onReady", () => {
    void purge();
  });
  app.addHook("onClose", async () => {
    clearInterval(housekeeping);
    services.backtest.stop();
    await services.stripeActions.stop();
    await services.outbox.stop();
    await services.alerts.stop();
    await services.rollups.stop();
    await services.webhooks.stop();
    await changes.close();
    if (!options.database) await database.close();
  });

  app.setErrorHandler(async (error, request, reply) => {
    const pub = toPublicError(error);
    if (pub.status >= 500) request.log.error({ err: error }, "request failed");
    if (pub.retryAfterSeconds) reply.header("retry-after", String(pub.retryAfterSeconds));
    // A body too large is still arriving: take the rest (bounded) so the client reads the 413.
    if (pub.status === 413 && !(await drainRequest(request.raw))) {
      reply.header("connection", "close");
    }
    return reply.code(pub.status).send(pub.body);
  });

  await app.register(securityHeadersPlugin, { https: config.publicUrl.startsWith("https:") });
  await app.register(sessionPlugin, { services, publicUrl: config.publicUrl });

  app.get("/healthz", async (_request, reply) => {
    try {
      await services.health.ping();
      return { status: "ok", database: database.kind };
    } catch {
      return reply.code(503).send({ status: "unavailable", database: database.kind });
    }
  });
  await app.register(trpcPlugin, {
    services,
    secureCookie: config.publicUrl.startsWith("https:"),
  });
  await app.register(restPlugin, { prefix: "/api", services });
  await app.register(livePlugin, { services });
  await app.register(stripeWebhookPlugin, { services });
  await app.register(metricsPlugin, { metrics: services.metrics, token: config.metricsToken });
  await app.register(clientPackagePlugin);
  await app.register(clientPlugin, { clientDir: options.clientDir ?? CLIENT_DIR });

  return app;
}
