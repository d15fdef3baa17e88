/** What the app hands the wiring (server/services.ts): connections, clients, settings. */
import type { ChangeFeed } from "../db/change-feed.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { SqlRunner } from "../db/sql-runner.ts";
import type { Encryptor } from "../lib/encryption.ts";
import type { Mailer } from "../lib/mailer.ts";
import type { PoolStats } from "../lib/metrics.ts";
import type { StripeClientFactory } from "../lib/stripe-client.ts";

export type ServiceDeps = {
  prisma: PrismaClient;
  /** Plain SQL on the same database, for hot paths. */
  sql: SqlRunner;
  /** Plain SQL for the screening path (database.ts: commits that do not wait for the disk). */
  screeningSql: SqlRunner;
  /** The PostgreSQL pool's connections, for the metrics (null when embedded). */
  poolStats: PoolStats;
  /** PostgreSQL's URL: backtest jobs then run in a process of their own (null: in-process). */
  databaseUrl: string | null;
  /** Announces settings changes to every instance (policy cache invalidation). */
  changes: ChangeFeed;
  mailer: Mailer;
  publicUrl: string;
  socialUrl: string;
  /** Seals merchant secrets at rest (AES-256-GCM). */
  encryptor: Encryptor;
  /** Makes a Stripe client for a merchant's secret key (API base configurable for tests). */
  stripeFor: StripeClientFactory;
  /** Screening: retention and the per-key rate limit. */
  screening: { retentionDays: number; ratePerMinute: number };
  /** Browser collects per publishable key and IP per minute (default 60). */
  collectPerIpPerMinute?: number;
  /** Decision webhooks may go to private addresses (self-hosted setups). */
  webhooksAllowPrivate?: boolean;
  /** Decision webhook endpoints an account may add (default 20). */
  webhookEndpointsPerAccount?: number;
  /** Days a delivered or failed decision webhook delivery is kept (default 30). */
  webhookDeliveryRetentionDays?: number;
  /** Collector tokens kept per publishable key (default TOKENS_PER_KEY). */
  collectTokensPerKey?: number;
  /** How often alerts are measured (ms, default a minute; ALERTS_EVERY_SECONDS). */
  alertsEveryMs?: number;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  now: () => Date;
};
