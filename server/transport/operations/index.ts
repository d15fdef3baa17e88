/**
 * Every operation a console member or a backend may call, one row each, by area: the tRPC
 * router (trpc/app.router.ts), the REST routes and their OpenAPI description
 * (rest/rest.plugin.ts) and the operations table below are all built from these rows. An
 * operation not here is refused: a new procedure or route cannot slip through unchecked
 * (test/access-sweep.int.test.ts calls every one as every role).
 */
import type { AccessRule, Operation } from "../operation.ts";
import { backtest, dashboard, screenings, stripe } from "./activity.ts";
import { alerts } from "./alerts.ts";
import { auth, waitlist } from "./auth.ts";
import { chargesApi, endUsersApi, labelsApi, screening, screeningsApi } from "./backend.ts";
import { collect } from "./collect.ts";
import { blocklist, ruleSettings, rules, settings, templates } from "./detection.ts";
import { allowedOrigins, apiKeys, webhooks } from "./keys.ts";
import { account, audit, endUsers, retention } from "./privacy.ts";
import { allowList, labels, review } from "./review.ts";
import { scoreModels, scoreThresholds } from "./scoring.ts";
import { security, team } from "./team.ts";
import { twoFactor } from "./two-factor.ts";

/** The areas in the order their REST routes are registered (and documented). */
export const AREAS = {
  auth,
  waitlist,
  dashboard,
  screenings,
  stripe,
  backtest,
  rules,
  templates,
  blocklist,
  allowList,
  allowedOrigins,
  settings,
  ruleSettings,
  apiKeys,
  webhooks,
  alerts,
  scoreModels,
  scoreThresholds,
  team,
  security,
  retention,
  endUsers,
  audit,
  twoFactor,
  account,
  review,
  labels,
  screening,
  labelsApi,
  screeningsApi,
  chargesApi,
  endUsersApi,
  collect,
};

/** An operation's row with its name, `<area>.<name>`. */
export type Named = Operation & { name: string };

/** Every row, named, in the areas' order. */
export const ROWS: readonly Named[] = Object.entries(AREAS).flatMap(([area, rows]) =>
  Object.entries(rows as Record<string, Operation>).map(([name, row]) => ({
    ...row,
    name: `${area}.${name}`,
  })),
);

/**
 * Operations served by a route of their own, not by a row's adapter: a stream and a download
 * (they check the same gate first, then answer in their own way).
 */
export const DIRECT = {
  "live.stream": { name: "live.stream", need: "read", route: "GET /api/live" },
  "audit.export": { name: "audit.export", need: "read", route: "GET /api/audit.csv" },
} as const satisfies Record<string, AccessRule & { route: string }>;

/**
 * The operations table: what each operation needs, what it audits, and where it is exposed
 * (`trpc`: a procedure of that name; `rest`: a route under /api), for the sweep and the
 * audit log's reader.
 */
export const OPERATIONS: Record<string, AccessRule & { trpc: boolean; rest: string | null }> =
  Object.fromEntries([
    ...ROWS.map((row) => [
      row.name,
      {
        name: row.name,
        need: row.need,
        audit: row.audit,
        target: row.target,
        trpc: row.trpc !== false,
        rest: row.rest ? `${row.rest.method} /api${row.rest.path}` : null,
      },
    ]),
    ...Object.values(DIRECT).map(({ route, ...rule }) => [
      rule.name,
      { ...rule, trpc: false, rest: route },
    ]),
  ]);
