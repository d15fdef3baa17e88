import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { LiveUpdates } from "../live/live-status.tsx";
import { ScreeningCounts } from "./screening-counts.tsx";
import { type Filters, hasFilters, ScreeningFilters } from "./screening-filters.tsx";
import { ScreeningTable } from "./screening-table.tsx";
import "./screenings.css";
import { LoadMore } from "../../components/load-more.tsx";
import { BulkLabelBar, useRowSelection } from "../review/bulk-labels.tsx";

const PAGE_SIZE = 50;

export default function ScreeningsPage() {
  return (
    <SignedIn>
      <h1>Screenings</h1>
      <LiveUpdates topics={["screenings", "review"]} />
      <Counts />
      <Screenings />
    </SignedIn>
  );
}

function Counts() {
  const trpc = useTRPC();
  const counts = useQuery(trpc.screenings.counts.queryOptions(undefined, { staleTime: 0 }));
  if (counts.isError) return <LoadError what="the counts" error={errorMessage(counts.error)} />;
  if (!counts.data) return null;
  return <ScreeningCounts counts={counts.data} />;
}

function Screenings() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>({});
  const selection = useRowSelection();
  const list = useInfiniteQuery(
    trpc.screenings.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 0 },
    ),
  );
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = hasFilters(filters);

  return (
    <section aria-label="Latest screenings">
      {(filtered || rows.length > 0) && <ScreeningFilters value={filters} onChange={setFilters} />}
      {list.isError ? (
        <LoadError what="screenings" error={errorMessage(list.error)} />
      ) : list.isPending ? (
        <p className="loading">Loading…</p>
      ) : rows.length === 0 ? (
        <div className="sc-empty">
          {filtered ? (
            <p>No screenings match these filters.</p>
          ) : (
            <>
              <p>No screenings yet.</p>
              <p>
                Create an API key in Settings, then have your backend send each signup, trial, promo
                or checkout to <code>POST /api/v1/screen</code> before it lets it happen.
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <BulkLabelBar
            selection={selection}
            shown={rows.map((row) => ({ kind: "screening", id: row.id }))}
          />
          <ScreeningTable rows={rows} selection={selection} />
          <LoadMore shown={rows.length} noun={["screening", "screenings"]} list={list} />
        </>
      )}
    </section>
  );
}
