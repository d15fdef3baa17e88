import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { DashboardFilters } from "../../../../shared/schemas/transaction.ts";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { DecisionsChart } from "../live/decisions-chart.tsx";
import { LiveUpdates } from "../live/live-status.tsx";
import { ChargesChart } from "./charges-chart.tsx";
import { LoadDemoButton } from "./load-demo-button.tsx";
import { RecommendedSetup } from "./recommended-setup.tsx";
import { RemoveDemoButton } from "./remove-demo-button.tsx";
import { SummaryCards } from "./summary-cards.tsx";
import { hasFilters, TransactionFilters } from "./transaction-filters.tsx";
import { TransactionTable } from "./transaction-table.tsx";
import "./dashboard.css";
import { LoadMore } from "../../components/load-more.tsx";

const PAGE_SIZE = 50;

export default function DashboardPage() {
  return (
    <SignedIn>
      <h1>Transaction Dashboard</h1>
      <RecommendedSetup />
      <LiveUpdates topics={["charges", "screenings", "review"]} />
      <RemoveDemoButton />
      <Summary />
      <DecisionsChart />
      <Transactions />
    </SignedIn>
  );
}

function Summary() {
  const trpc = useTRPC();
  const summary = useQuery(trpc.dashboard.summary.queryOptions());
  if (summary.isError) return <LoadError what="the totals" error={errorMessage(summary.error)} />;
  if (!summary.data || summary.data.charges === 0) return null;
  return (
    <>
      <SummaryCards summary={summary.data} />
      <ChargesChart days={summary.data.days} />
    </>
  );
}

function Transactions() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<DashboardFilters>({});
  const list = useInfiniteQuery(
    trpc.dashboard.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = hasFilters(filters);

  return (
    <section aria-label="Transactions">
      {(filtered || rows.length > 0) && (
        <TransactionFilters value={filters} onChange={setFilters} />
      )}
      {list.isError ? (
        <LoadError what="transactions" error={errorMessage(list.error)} />
      ) : list.isPending ? (
        <p className="loading">Loading…</p>
      ) : rows.length === 0 ? (
        <div className="tx-empty">
          <p>No transactions found.</p>
          {!filtered && <LoadDemoButton />}
        </div>
      ) : (
        <>
          <TransactionTable rows={rows} />
          <LoadMore shown={rows.length} noun={["transaction", "transactions"]} list={list} />
        </>
      )}
    </section>
  );
}
