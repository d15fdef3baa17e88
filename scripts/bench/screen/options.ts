/** bench:screen's flags (see scripts/bench-screen.ts), read once. */
import { flags } from "../../lib/progress.ts";
import { databaseKinds } from "../warden.ts";

const args = flags();

export const options = {
  databases: databaseKinds(args.db),
  fill: Number(args.fill ?? 20_000),
  /** Screenings of history stored straight into the database first (PostgreSQL; stored.ts). */
  stored: Number(args.stored ?? 0),
  /** `--stored-digests legacy`: that history unkeyed, as an install from before keyed digests. */
  storedLegacy: args["stored-digests"] === "legacy",
  /** Seconds per load. */
  seconds: Number(args.duration ?? 12),
  connections: Number(args.connections ?? 32),
  rate: Number(args.rate ?? 1000),
  rateConnections: Number(args["rate-connections"] ?? 10),
  json: args.json as string | undefined,
  fillConcurrency: 16,
  pgAdminUrl: process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
};

/** "1.23 ms" below 10 ms, "12.3 ms" above. */
export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
