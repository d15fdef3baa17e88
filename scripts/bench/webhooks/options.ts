/** bench:webhooks' flags (see scripts/bench-webhooks.ts) and the run's secrets, made once. */
import { randomBytes } from "node:crypto";
import { flags } from "../../lib/progress.ts";
import { databaseKinds } from "../warden.ts";

const args = flags();

export const options = {
  databases: databaseKinds(args.db),
  events: Number(args.events ?? 20_000),
  warmup: Number(args.warmup ?? 1000),
  connections: Number(args.connections ?? 16),
  bareSeconds: Number(args["bare-seconds"] ?? 10),
  json: args.json as string | undefined,
  pgAdminUrl:
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgresql://postgres@127.0.0.1:5432/postgres",
};

export const PASSWORD = "bench webhooks password";
export const SECRET_KEY = "sk_test_51WardenBenchKey000000000000000";
export const SIGNING_SECRET = `whsec_${randomBytes(24).toString("base64url")}`;
export const METRICS_TOKEN = randomBytes(24).toString("base64url");
