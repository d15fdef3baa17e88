/** bench:backtest's flags and environment (see scripts/bench-backtest.ts), and its settings. */
import { DEFAULT_RULES, RULE_KEYS } from "../../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import { flags } from "../../lib/progress.ts";

const args = flags();

export const options = {
  databases: (args.db ?? "postgres,embedded").split(","),
  json: args.json as string | undefined,
  pgEvents: Number(process.env.BENCH_EVENTS ?? 1_000_000),
  embeddedEvents: Number(process.env.BENCH_EMBEDDED_EVENTS ?? 200_000),
  pgAdminUrl: process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
};

export const SEED_EVENTS = 50_000;
export const DAY_MS = 86_400_000;
export const ACCOUNT = "bench-backtest";

/** Every rule on, with the default settings; a block list as a merchant might have. */
export const SETTINGS = {
  rules: { ...DEFAULT_RULES, ...Object.fromEntries(RULE_KEYS.map((key) => [key, true])) },
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  blocklist: { countries: ["NG"], email_providers: ["mailinator.com"] },
  days: 30,
};
