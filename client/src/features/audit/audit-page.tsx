/**
 * The Audit log: who changed what in this account, when, from where, newest first; filtered
 * by kind of change, actor and dates, a page at a time, and exported as CSV with the same
 * filters (GET /api/audit.csv).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AUDIT_PAGE_DEFAULT } from "../../../../shared/schemas/audit.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AuditFilters } from "./audit-filters.tsx";
import { type AuditFilterForm, datesReversed, exportHref, filterQuery } from "./audit-format.ts";
import { AuditList } from "./audit-list.tsx";
import "./audit.css";

export default function AuditPage() {
  return (
    <SignedIn>
      <h1>Audit log</h1>
      <p className="au-intro">
        Every change to this account's configuration, every review decision and label, and every
        sign-in: who did it, when and from where. Secrets are never shown.
      </p>
      <AuditLog />
    </SignedIn>
  );
}

function AuditLog() {
  const [form, setForm] = useState<AuditFilterForm>({});
  const reversed = datesReversed(form);
  return (
    <section aria-label="Audit events">
      <div className="au-bar">
        <AuditFilters value={form} onChange={setForm} />
        <a className="button secondary au-export" href={exportHref(form)} download>
          Export CSV
        </a>
      </div>
      {reversed ? (
        <p className="message error" role="alert">
          The first day comes after the last one: pick a range that runs forward.
        </p>
      ) : (
        <Events form={form} />
      )}
    </section>
  );
}

function Events({ form }: { form: AuditFilterForm }) {
  const trpc = useTRPC();
  const filtered = Object.keys(filterQuery(form)).length > 0;
  const list = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { limit: AUDIT_PAGE_DEFAULT, ...filterQuery(form) },
      { getNextPageParam: (page) => page.next_cursor ?? undefined, staleTime: 0 },
    ),
  );
  const events = list.data?.pages.flatMap((page) => page.items) ?? [];
  if (list.isError) return <LoadError what="the audit log" error={errorMessage(list.error)} />;
  if (list.isPending) return <p className="loading">Loading…</p>;
  if (events.length === 0) {
    return (
      <p className="au-empty">
        {filtered ? "No events match these filters." : "Nothing has been recorded yet."}
      </p>
    );
  }
  return (
    <>
      <AuditList events={events} />
      <LoadMore shown={events.length} noun={["event", "events"]} list={list} />
    </>
  );
}
