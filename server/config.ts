/** Configuration from the environment, parsed once; a bad value is one clear line. */
import { isIP } from "node:net";
import { resolve } from "node:path";
import proxyaddr from "@fastify/proxy-addr";
import { z } from "zod";
import { parseEncryptionKey } from "./lib/encryption.ts";

const optionalUrl = (protocols: string[], hint: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .refine((value) => value === undefined || isUrl(value, protocols), { message: hint });

function isUrl(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const TRUST_PROXY_HINT =
  "must be the number of proxies in front of Warden (e.g. 1) or their addresses/CIDRs, comma-separated (e.g. 10.0.0.0/8); `true` is no longer accepted: it let any client choose its IP with X-Forwarded-For";

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: false, a hop count, or addresses and CIDRs.
 * Never `true`, which trusts every hop, so any client could pick its own address.
 */
export function parseTrustProxy(text: string): false | number | string[] | null {
  if (text === "" || text === "false" || text === "0") return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  if (!entries.every(isAddressOrCidr)) return null;
  // What Fastify will do with them: a value it would refuse ("10.0.0.0/0") fails here, at
  // start, with the hint, not on the first request.
  try {
    proxyaddr.compile(entries);
  } catch {
    return null;
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

const ZEnv = z.object({
  PORT: z.coerce
    .number({ message: "must be a port number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalUrl(
    ["postgres:", "postgresql:"],
    "must be a postgres:// or postgresql:// URL",
  ),
  PUBLIC_URL: optionalUrl(["http:", "https:"], "must be an http:// or https:// URL"),
  SMTP_URL: optionalUrl(["smtp:", "smtps:"], "must be an smtp:// or smtps:// URL"),
  MAIL_FROM: z.string().trim().min(3).default("Warden <no-reply@localhost>"),
  ENCRYPTION_KEY: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? parseEncryptionKey(value) : undefined))
    .refine((key) => key !== null, {
      message: "must be 32 bytes written as base64 or 64 hex digits (openssl rand -base64 32)",
    }),
  SOCIAL_URL: optionalUrl(["http:", "https:"], "must be an http:// or https:// URL"),
  STRIPE_API_BASE: optionalUrl(["http:", "https:"], "must be an http:// or https:// URL"),
  SCREENING_RETENTION_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be from 1 to 3650 days")
    .max(3650, "must be from 1 to 3650 days")
    .default(90),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be from 1 to 3650 days")
    .max(3650, "must be from 1 to 3650 days")
    .default(30),
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, "must be at least 16 characters (openssl rand -hex 16)")
    .optional(),
  SCREEN_RATE_LIMIT: z.coerce
    .number({ message: "must be a number of requests a minute" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(120_000),
  COLLECT_RATE_LIMIT: z.coerce
    .number({ message: "must be a number of requests a minute" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(60),
  /** The most signal tokens one publishable key keeps; the oldest go first (decision 013). */
  COLLECT_TOKENS_PER_KEY: z.coerce
    .number({ message: "must be a number of tokens" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(20_000),
  /** How often the alerts merchants set are measured (issue 45). */
  ALERTS_EVERY_SECONDS: z.coerce
    .number({ message: "must be a number of seconds" })
    .int("must be a whole number")
    .min(5, "must be from 5 to 3600")
    .max(3600, "must be from 5 to 3600")
    .default(60),
  /** The most decision webhook endpoints one account may add. */
  WEBHOOK_ENDPOINTS_PER_ACCOUNT: z.coerce
    .number({ message: "must be a number of endpoints" })
    .int("must be a whole number")
    .min(1, "must be from 1 to 1000")
    .max(1000, "must be from 1 to 1000")
    .default(20),
  /** Lets decision webhooks reach private, loopback and link-local addresses (self-hosting). */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0", ""], { message: "must be true or false" })
    .default("false")
    .transform((value) => value === "true" || value === "1"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  LOG_FORMAT: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.enum(["pretty", "json"], { message: "must be pretty or json" }).optional(),
  ),
  TRUST_PROXY: z
    .string()
    .trim()
    .default("")
    .transform(parseTrustProxy)
    .refine((value) => value !== null, { message: TRUST_PROXY_HINT }),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  /** The project's social media profile, linked from the landing page footer. */
  socialUrl: string;
  /** Key for secrets at rest; absent in embedded mode means "generated into DATA_DIR". */
  encryptionKey?: Buffer;
  /** Where Stripe API calls go; unset means Stripe itself (tests point it at a stand-in). */
  stripeApiBase?: string;
  /** Days a screening is kept (its counting rows, hashed, are kept for the longest window). */
  screeningRetentionDays: number;
  /** Days a delivered or failed decision webhook delivery is kept for the console's log. */
  webhookDeliveryRetentionDays: number;
  /** Bearer token for GET /metrics; unset: no metrics route. */
  metricsToken?: string;
  /** Screening requests per API key per minute, per instance; past it, 429. */
  screenRateLimit: number;
  /** Browser collects per publishable key and IP per minute, per instance. */
  collectRateLimit: number;
  collectTokensPerKey: number;
  /** Seconds between two measurements of the alerts (ALERTS_EVERY_SECONDS). */
  alertsEverySeconds: number;
  /** Decision webhooks may go to private addresses (WEBHOOKS_ALLOW_PRIVATE). */
  webhooksAllowPrivate: boolean;
  /** Decision webhook endpoints an account may add (WEBHOOK_ENDPOINTS_PER_ACCOUNT). */
  webhookEndpointsPerAccount: number;
  logLevel: z.infer<typeof ZEnv>["LOG_LEVEL"];
  /** LOG_FORMAT: readable lines or JSON; unset, pretty on a terminal and JSON otherwise. */
  logFormat?: "pretty" | "json";
  /** Fastify's trustProxy: false, how many proxies are in front, or their addresses/CIDRs. */
  trustProxy: false | number | string[];
};

export const DEFAULT_SOCIAL_URL = "https://x.com/wardenhq";

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with "NAME: reason" for the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    // Never echo a secret back into logs: keys and URLs that may carry a password.
    const secret = ["ENCRYPTION_KEY", "DATABASE_URL", "SMTP_URL", "METRICS_TOKEN"].includes(name);
    const got = env[name] === undefined || secret ? "" : ` (got "${env[name]}")`;
    throw new ConfigError(`${name}: ${issue?.message}${got}`);
  }
  const e = parsed.data;
  if (e.DATABASE_URL && !e.ENCRYPTION_KEY) {
    throw new ConfigError(
      "ENCRYPTION_KEY: required with DATABASE_URL (32 bytes as base64 or hex, e.g. openssl rand -base64 32)",
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    socialUrl: e.SOCIAL_URL ?? DEFAULT_SOCIAL_URL,
    encryptionKey: e.ENCRYPTION_KEY ?? undefined,
    stripeApiBase: e.STRIPE_API_BASE,
    screeningRetentionDays: e.SCREENING_RETENTION_DAYS,
    webhookDeliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
    screenRateLimit: e.SCREEN_RATE_LIMIT,
    collectRateLimit: e.COLLECT_RATE_LIMIT,
    collectTokensPerKey: e.COLLECT_TOKENS_PER_KEY,
    alertsEverySeconds: e.ALERTS_EVERY_SECONDS,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    webhookEndpointsPerAccount: e.WEBHOOK_ENDPOINTS_PER_ACCOUNT,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY ?? false,
  };
}
