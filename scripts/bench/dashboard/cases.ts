/** What bench:dashboard times through the real transactions service, and how (median, p95). */
import type { Database } from "../../../server/db/database.ts";
import { encodeCursor } from "../../../server/modules/transactions/transaction-cursor.ts";
import { createTransactionsRepository } from "../../../server/modules/transactions/transactions.repository.ts";
import {
  createTransactionsService,
  type ListOptions,
} from "../../../server/modules/transactions/transactions.service.ts";
import { ROWS, RUNS } from "./options.ts";

type Case = { name: string; run: () => Promise<unknown>; target?: string };
export type Measured = { name: string; median: number; p95: number; target?: string };

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5) ?? 0, p95: at(0.95) ?? 0 };
}

/** Each case twice to warm caches and the query plan, then RUNS timed runs. */
export async function measure(cases: Case[]): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const c of cases) {
    for (let i = 0; i < 2; i++) await c.run(); // warm caches and the query plan
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await c.run();
      samples.push(performance.now() - started);
    }
    const { median, p95 } = stats(samples);
    results.push({ name: c.name, median, p95, target: c.target });
  }
  return results;
}

/** Issue 9's targets for the whole dashboard load. */
function targetFor(kind: string, rows: number): string | undefined {
  if (kind.startsWith("embedded")) return rows <= 1_000_000 ? "<= 20" : undefined;
  return rows <= 1_000_000 ? "<= 10" : rows <= 10_000_000 ? "<= 20" : undefined;
}

/** The whole load, each part alone, filtered pages, search and a deep page. */
export async function dashboardCases(kind: string, db: Database): Promise<Case[]> {
  const service = createTransactionsService(
    createTransactionsRepository(db.prisma),
    () => new Date(),
  );
  const [middle] = await db.prisma.transaction.findMany({
    where: { accountId: "bench-main" },
    orderBy: [{ created: "desc" }, { chargeId: "desc" }],
    skip: Math.floor(ROWS / 2),
    take: 1,
    select: { created: true, chargeId: true },
  });
  const list = (options: ListOptions) => () => service.list("bench-main", options);
  const firstPage = list({ limit: 50 });
  const summary = () => service.summary("bench-main");
  return [
    {
      name: "whole dashboard load (first page ‖ summary)",
      run: () => Promise.all([firstPage(), summary()]),
      target: targetFor(kind, ROWS),
    },
    { name: "summary (30 days: totals and chart)", run: summary },
    { name: "first page (50, no filter)", run: firstPage },
    { name: "first page, outcome=blocked", run: list({ outcome: "blocked" }) },
    { name: "first page, blockedBy=custom_rule", run: list({ blockedBy: "custom_rule" }) },
    { name: "first page, riskLevel=highest", run: list({ riskLevel: "highest" }) },
    { name: "search charge id (exact)", run: list({ search: "ch_main0000500000" }) },
    { name: "search email prefix (user12345@)", run: list({ search: "user12345@" }) },
    {
      name: `page at row ${Math.floor(ROWS / 2).toLocaleString()} (cursor)`,
      run: list({ cursor: middle && encodeCursor(middle) }),
    },
    { name: "first page, limit 1000", run: list({ limit: 1000 }) },
  ];
}
