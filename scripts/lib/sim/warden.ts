/**
 * The Warden the simulation talks to, over HTTP on 127.0.0.1. By default this process starts
 * it (buildApp, as the tests do) on the embedded database or a throwaway PostgreSQL database,
 * with a simulated clock: the server's own `now` option, which the screening windows (1 min,
 * 10 min, 1 h, days) read, so an hour of traffic is judged as an hour. With --url it points
 * at a Warden already running: its clock is the wall clock, so the simulated hours are
 * compressed into however long the run takes and every window sees more than it would.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../../server/app.ts";
import { loadConfig } from "../../../server/config.ts";
import { benchDatabase, call, cleanups, freePort, HOST, signUpMerchant } from "../bench-process.ts";
import { SHOP } from "../end-users.ts";
import type { StripeWebhook } from "./stripe-history.ts";

export type Clock = { set(ms: number): void; now(): number; simulated: boolean };

export type Warden = {
  base: string;
  dataDir: string;
  clock: Clock;
  /**
   * Measures every account's alerts at the simulated clock (issue 45), as the server does each
   * minute; only a Warden this process started (one at --url measures on its own wall clock).
   */
  evaluateAlerts?: () => Promise<void>;
  /** Real XFF handling: the collector sees the browser's address, not 127.0.0.1. */
  close(): Promise<void>;
};

/** Starts Warden in this process on a free port, with a clock the driver moves. */
export async function startWarden(db: "embedded" | "postgres"): Promise<Warden> {
  let current = Date.UTC(2026, 10, 2, 9, 0, 0);
  const clock: Clock = {
    set: (ms) => {
      current = ms;
    },
    now: () => current,
    simulated: true,
  };
  const dataDir = await mkdtemp(join(tmpdir(), "warden-sim-"));
  let databaseUrl: string | undefined;
  if (db === "postgres") {
    const admin = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!admin)
      throw new Error(
        "--db postgres needs DATABASE_URL or TEST_DATABASE_URL (a server to create a throwaway database on)",
      );
    databaseUrl = (await benchDatabase(admin, "warden_sim")).url;
  }
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://${HOST}:${port}`,
    // SIM_LOG_LEVEL=error shows why a request failed (a 500 says only "something went wrong").
    LOG_LEVEL: process.env.SIM_LOG_LEVEL ?? "silent",
    // One process plays every browser: the per-browser collect limit would count them as one.
    COLLECT_RATE_LIMIT: "1000000",
    TRUST_PROXY: "1",
    // PostgreSQL needs an encryption key in the environment; a throwaway one for a throwaway database.
    ...(databaseUrl
      ? { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: randomBytes(32).toString("base64") }
      : {}),
  });
  const app = await buildApp(config, { now: () => new Date(current), runStripeActions: false });
  await app.listen({ port, host: HOST });
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  cleanups.push(close);
  return {
    base: `http://${HOST}:${port}`,
    dataDir,
    clock,
    evaluateAlerts: () => app.services.alerts.evaluate(),
    close,
  };
}

/** A Warden someone else runs: `dataDir` is its DATA_DIR (for the confirmation email). */
export function remoteWarden(url: string, dataDir: string): Warden {
  let current = Date.now();
  return {
    base: url.replace(/\/$/, ""),
    dataDir,
    clock: {
      set: (ms) => {
        current = ms;
      },
      now: () => current,
      simulated: false,
    },
    close: async () => {},
  };
}

export type Configuration = {
  /** What the report calls it: a template key, or "all_rules". */
  name: string;
  templates: string[];
  allRules: boolean;
  /**
   * Rule settings put over the templates' (PUT /api/rule-settings, shaped like
   * shared/schemas/rule-settings.ts's update). Sent as given: the server judges the fields, so
   * a field it does not know is its 400, not the simulator's guess.
   */
  settings?: Record<string, unknown>;
};

export type Merchant = { secretKey: string; publishableKey: string; webhook: StripeWebhook };

/** The merchant's console API (a logged-in session). */
export type Api = <T>(path: string, init?: { method?: string; body?: unknown }) => Promise<T>;

/**
 * Stripe connected by its webhook alone: the endpoint's signing secret is saved, no secret key,
 * so Warden never calls Stripe; what it knows of charges comes through the webhook.
 */
async function connectStripeWebhook(api: Api, email: string): Promise<StripeWebhook> {
  const secret = "whsec_simulated_detection_quality";
  const saved = await api<{ stripe_webhook_url: string }>("/api/settings", {
    method: "PUT",
    body: {
      app_name: "Simulated shop",
      contact_email: email,
      stripe_secret: "",
      stripe_publishable: "",
      stripe_webhook_secret: secret,
    },
  });
  return { path: new URL(saved.stripe_webhook_url).pathname, secret };
}

/**
 * A new merchant signed up, confirmed and logged in: its console API and email. The API logs
 * in again when the session has expired (the simulated clock may have moved on by months).
 */
export async function merchantConsole(
  warden: Warden,
  label: string,
): Promise<{ api: Api; email: string }> {
  const email = `sim-${label}-${Date.now().toString(36)}@example.com`;
  const password = "simulate detection quality";
  let token = await signUpMerchant(warden.base, warden.dataDir, password, email);
  const api: Api = async (path, init = {}) => {
    try {
      return await call(warden.base, path, { ...init, token });
    } catch (error) {
      if (!String(error).includes("HTTP 401")) throw error;
      const login = { body: { email, password } };
      token = (await call<{ token: string }>(warden.base, "/api/auth/login", login)).token;
      return call(warden.base, path, { ...init, token });
    }
  };
  return { api, email };
}

/** PUT /api/rule-settings; the server's refusal (an unknown rule or field, a bad value) in words. */
export async function putRuleSettings(api: Api, settings: Record<string, unknown>): Promise<void> {
  try {
    await api("/api/rule-settings", { method: "PUT", body: settings });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`rule settings refused by the server: ${message}`);
  }
}

/**
 * A new merchant set up through the API as a person would: signup, confirm, login, the
 * templates (or every rule) on, its own rule settings if any, the shop's origin allowed (the
 * collector needs it), Stripe's webhook connected, a secret and a publishable key; with its
 * console API, for what a run does later as the merchant.
 */
export async function setUpMerchant(
  warden: Warden,
  config: Configuration,
  label: string,
): Promise<Merchant & { api: Api }> {
  const { api, email } = await merchantConsole(warden, label);
  const templates = await api<Record<string, boolean>>("/api/templates");
  const unknown = config.templates.filter((key) => !(key in templates));
  if (unknown.length > 0) throw new Error(`unknown template(s): ${unknown.join(", ")}`);
  await api("/api/templates", {
    method: "PUT",
    body: Object.fromEntries(
      Object.keys(templates).map((key) => [key, config.templates.includes(key)]),
    ),
  });
  if (config.allRules) {
    const rules = await api<Record<string, unknown>>("/api/rules");
    await api("/api/rules", {
      method: "PUT",
      body: Object.fromEntries(
        Object.entries(rules).map(([k, v]) => [k, typeof v === "boolean" ? true : v]),
      ),
    });
  }
  if (config.settings && Object.keys(config.settings).length > 0)
    await putRuleSettings(api, config.settings);
  await api("/api/allowed-origins", { method: "PUT", body: { origins: [SHOP] } });
  const secret = await api<{ key: string }>("/api/api-keys", {
    body: { name: "simulated backend" },
  });
  const publishable = await api<{ key: string }>("/api/api-keys", {
    body: { name: "simulated shop", kind: "publishable" },
  });
  const webhook = await connectStripeWebhook(api, email);
  return { secretKey: secret.key, publishableKey: publishable.key, webhook, api };
}
