/**
 * A screening's linked accounts (decision 023): the line ("Linked to 14 accounts first seen in
 * the last hour, through card (12) and device (3)") from the summary stored when it was
 * screened, else from the list; the identities too widely shared to link; and the list itself
 * (account, first seen, screenings, status, through), read from the screening's detail. On the
 * Screenings page's open row, and on a review card (there the list opens on demand).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { LinkedAccount } from "../../../../shared/schemas/review.ts";
import type { LinkedSummary } from "../../../../shared/schemas/screening.ts";
import { Breakable } from "../../components/breakable.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import {
  accountStatus,
  ageSentence,
  formatThrough,
  hubSentence,
  linkedSentence,
  summaryOfList,
} from "./linked-format.ts";
import { formatWho } from "./screening-format.ts";
import "./linked-accounts.css";

export function LinkedAccounts(props: {
  id: string;
  /** The screening's time: the list's summary counts "first seen in the last hour" from it. */
  createdAt: string;
  /** The stored summary when the caller has it (a review item); else the detail's. */
  summary?: LinkedSummary | null;
  /** Read the list now (the row is open, the card selected); else only once it is opened. */
  load: boolean;
  /** The list behind a disclosure (a review card), rather than shown (an open row). */
  collapsed?: boolean;
}) {
  const trpc = useTRPC();
  const [opened, setOpened] = useState(false);
  const detail = useQuery(
    trpc.review.detail.queryOptions({ id: props.id }, { enabled: props.load || opened }),
  );
  const list = detail.data?.linked_accounts;
  const hubs = detail.data?.linked_hubs ?? props.summary?.hubs ?? [];
  const stored = props.summary !== undefined ? props.summary : (detail.data?.linked ?? null);
  const summary = stored ?? (list ? summaryOfList(list, hubs, props.createdAt) : null);
  const line = summary && linkedSentence(summary);
  const hubLine = hubSentence(summary?.hubs ?? hubs);
  const ageLine = stored ? ageSentence(stored, props.createdAt) : null;
  if (detail.isError) {
    return <LoadError what="the linked accounts" error={errorMessage(detail.error)} />;
  }
  const nothing = !line && !hubLine;
  // A review card says nothing of an account linked to nobody; an open row says so.
  if (nothing && (props.collapsed || !list)) return null;
  return (
    <section className="ln" aria-label="Linked accounts">
      {nothing && (
        <p className="ln-line ln-none">
          No other account shared its identities in the 30 days before.
        </p>
      )}
      {line && (
        <p className={summary && summary.bad > 0 ? "ln-line bad" : "ln-line"} data-linked-line>
          {line}
        </p>
      )}
      {hubLine && <p className="ln-hubs">{hubLine}</p>}
      {ageLine && (line || hubLine) && (
        <p className="ln-hubs" data-linked-age>
          {ageLine}
        </p>
      )}
      {line &&
        (props.collapsed ? (
          <details
            className="ln-more"
            onToggle={(e) => setOpened((e.target as HTMLDetailsElement).open)}
          >
            <summary>Linked accounts</summary>
            {list ? <LinkedTable accounts={list} /> : <p className="loading">Loading…</p>}
          </details>
        ) : (
          list && <LinkedTable accounts={list} />
        ))}
    </section>
  );
}

function LinkedTable({ accounts }: { accounts: LinkedAccount[] }) {
  if (accounts.length === 0) {
    return <p className="ln-none">None of the accounts it was linked to is stored any more.</p>;
  }
  return (
    <table className="ln-table">
      <caption className="visually-hidden">Linked accounts, newest first</caption>
      <TableHead columns={["Account", "First seen", "Screenings", "Status", "Through"]} />
      <tbody>
        {accounts.map((a) => {
          const status = accountStatus(a);
          return (
            <tr
              key={`${a.user_id}|${a.email}|${a.first_seen}|${a.last_seen}|${a.through}`}
              data-linked-account
            >
              <td className="ln-who">
                <Breakable value={formatWho(a.user_id, a.email)} />
              </td>
              <td data-heading="First seen">
                <time dateTime={a.first_seen}>{new Date(a.first_seen).toLocaleString()}</time>
              </td>
              <td className="num" data-heading="Screenings">
                {a.screenings}
              </td>
              <td data-heading="Status" className={status === "-" ? "" : "bad"}>
                {status}
              </td>
              <td data-heading="Through">{formatThrough(a.through)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
