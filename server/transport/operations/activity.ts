/**
 * What the account has seen and is doing: the dashboard's charges, the screenings, Stripe's
 * demo and import, and "Test on history". GET /api/dashboard is the charges for scripts.
 */
import { z } from "zod";
import { ZBacktestInput, ZBacktestJob } from "../../../shared/schemas/backtest.ts";
import { ZDemoLoaded, ZDemoPreview, ZDemoRemoved } from "../../../shared/schemas/demo.ts";
import { ZDecisionsPerMinute } from "../../../shared/schemas/live.ts";
import {
  ZScreeningCounts,
  ZScreeningListInput,
  ZScreeningPage,
} from "../../../shared/schemas/screening.ts";
import {
  API_LIMIT_DEFAULT,
  LIMIT_MAX,
  toSpecTransaction,
  ZDashboardApiQuery,
  ZDashboardListInput,
  ZDashboardPage,
  ZDashboardSummary,
  ZTransaction,
} from "../../../shared/schemas/transaction.ts";
import { op } from "../operation.ts";

export const dashboard = {
  /** One page of the account's charges, newest first; pass nextCursor back for the next. */
  list: op({
    need: "read",
    kind: "query",
    input: ZDashboardListInput,
    output: ZDashboardPage,
    handler: ({ services, caller }, input) => services.transactions.list(caller.accountId, input),
    // Scripts get the newest `limit` charges as the API spec's transactions, not a page.
    rest: {
      method: "GET",
      path: "/dashboard",
      tag: "dashboard",
      summary: "The account's transactions, newest first",
      query: ZDashboardApiQuery,
      input: ({ query }) => ZDashboardListInput.parse({ limit: query.limit }),
      response: ZTransaction.array(),
      answer: (page: z.output<typeof ZDashboardPage>) => page.items.map(toSpecTransaction),
      openapi: {
        querystring: {
          type: "object",
          properties: {
            limit: { type: "integer", minimum: 1, maximum: LIMIT_MAX, default: API_LIMIT_DEFAULT },
          },
        },
      },
    },
  }),
  /** Totals and charges per day over the last 30 days. */
  summary: op({
    need: "read",
    kind: "query",
    output: ZDashboardSummary,
    handler: ({ services, caller }) => services.transactions.summary(caller.accountId),
  }),
};

/** The console's Screenings page. */
export const screenings = {
  list: op({
    need: "read",
    kind: "query",
    input: ZScreeningListInput,
    output: ZScreeningPage,
    handler: ({ services, caller }, input) =>
      services.screeningHistory.list(caller.accountId, input),
  }),
  counts: op({
    need: "read",
    kind: "query",
    output: ZScreeningCounts,
    handler: ({ services, caller }) => services.screeningHistory.counts(caller.accountId),
  }),
  /** The dashboard's chart: decisions per minute over the last hour. */
  perMinute: op({
    need: "read",
    kind: "query",
    output: ZDecisionsPerMinute,
    handler: ({ services, caller }) => services.perMinute.lastHour(caller.accountId),
  }),
};

const ZImportJob = z
  .object({
    id: z.string(),
    status: z.string(),
    days: z.number(),
    imported: z.number(),
    progress: z.number(),
    error: z.string().nullable(),
  })
  .nullable();

const pick = (job: z.infer<typeof ZImportJob>) =>
  job && {
    id: job.id,
    status: job.status,
    days: job.days,
    imported: job.imported,
    progress: job.progress,
    error: job.error,
  };

export const stripe = {
  /** Sends the sample events through this account's webhook URL (local installs). */
  loadDemo: op({
    need: "configure",
    audit: "event",
    kind: "mutation",
    output: ZDemoLoaded,
    handler: ({ services, caller }) => services.demo.load(caller.accountId),
  }),
  /** What loading the demo would do now, and how many demo charges the account holds. */
  demoPreview: op({
    need: "read",
    kind: "query",
    output: ZDemoPreview,
    handler: ({ services, caller }) => services.demo.preview(caller.accountId),
  }),
  /** Deletes the demo's rows and puts back the settings it changed (if unchanged since). */
  removeDemo: op({
    need: "configure",
    audit: "event",
    kind: "mutation",
    output: ZDemoRemoved,
    handler: ({ services, caller }) => services.demo.remove(caller.accountId),
  }),
  startImport: op({
    need: "configure",
    audit: true,
    kind: "mutation",
    input: z.strictObject({ days: z.number().int().min(1).max(365).default(90) }),
    output: ZImportJob,
    handler: async ({ services, caller }, input) =>
      pick(await services.stripeImport.start(caller.accountId, input.days)),
  }),
  importStatus: op({
    need: "read",
    kind: "query",
    output: ZImportJob,
    handler: async ({ services, caller }) =>
      pick(await services.stripeImport.status(caller.accountId)),
  }),
};

// A what-if over past screenings changes nothing, but costs the server: analysts may run it.
export const backtest = {
  /** Starts "Test on history" with the page's settings, or returns the one already running. */
  start: op({
    need: "review",
    kind: "mutation",
    input: ZBacktestInput,
    output: ZBacktestJob,
    handler: ({ services, caller }, input) => services.backtest.start(caller.accountId, input),
  }),
  /** The latest backtest: progress while it runs, the result when done. */
  status: op({
    need: "read",
    kind: "query",
    output: ZBacktestJob,
    handler: ({ services, caller }) => services.backtest.report(caller.accountId),
  }),
  cancel: op({
    need: "review",
    kind: "mutation",
    output: ZBacktestJob,
    handler: ({ services, caller }) => services.backtest.cancel(caller.accountId),
  }),
};
