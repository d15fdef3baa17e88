/**
 * bench:compare's flags (see scripts/bench-compare.ts), read once. It runs bench:screen's and
 * bench:webhooks' loads, which read their own options (screen/options.ts,
 * webhooks/options.ts): the shared figures are set on those from here, so one flag means the
 * same in all three.
 */
import { flags } from "../../lib/progress.ts";
import { options as screenOptions } from "../screen/options.ts";
import { databaseKinds } from "../warden.ts";
import { options as webhooksOptions } from "../webhooks/options.ts";

// --profile takes no value: taken out first, so flags() does not read the next flag as one.
const profile = process.argv.includes("--profile");
const args = flags(process.argv.slice(2).filter((arg) => arg !== "--profile"));

/** Which halves run: `--only screen|webhooks`, default both. */
function halves(only: string | undefined) {
  if (only !== undefined && only !== "screen" && only !== "webhooks") {
    console.error(`--only must be screen or webhooks (got "${only}")`);
    process.exit(2);
  }
  return { screen: only !== "webhooks", webhooks: only !== "screen" };
}

if (!args.base) {
  console.error(
    "usage: npm run bench:compare -- --base <rev> [--head <rev>] [--rounds 3] [--db postgres|embedded]\n" +
      "         [--only screen|webhooks] [--duration 8] [--fill 10000] [--events 10000]\n" +
      "         [--connections 32] [--rate 1000] [--profile]",
  );
  process.exit(2);
}

export const options = {
  base: args.base,
  /** Unset: the working tree as it is, uncommitted changes included. */
  head: args.head || undefined,
  rounds: Number(args.rounds ?? 3),
  databases: databaseKinds(args.db),
  run: halves(args.only),
  fill: Number(args.fill ?? 10_000),
  seconds: Number(args.duration ?? 8),
  connections: Number(args.connections ?? 32),
  rate: Number(args.rate ?? 1000),
  events: Number(args.events ?? 10_000),
  warmup: Number(args.warmup ?? 1000),
  /** bench:webhooks' own default: its closed loop is not the screening's. */
  webhookConnections: Number(args["webhook-connections"] ?? 16),
  /** Each Warden server writes a CPU profile, split into phases after its turn (profiles.ts). */
  profile,
};

for (const [name, value] of Object.entries(options)) {
  if (typeof value === "number" && !(value > 0)) {
    console.error(`bench:compare: ${name} must be a positive number (got ${value})`);
    process.exit(2);
  }
}

Object.assign(screenOptions, {
  fill: options.fill,
  seconds: options.seconds,
  connections: options.connections,
  rate: options.rate,
});
Object.assign(webhooksOptions, {
  events: options.events,
  warmup: options.warmup,
  connections: options.webhookConnections,
  bareSeconds: options.seconds,
});
