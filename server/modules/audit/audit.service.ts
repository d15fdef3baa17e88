/**
 * The audit log: who changed what, when, from where. Every change of configuration, every
 * review decision, label and bulk action (written by the one gate every console and API
 * mutation passes, server/transport/access.ts), and every sign-in, failed sign-in and
 * two-factor change (written by the auth services). Secrets are masked before they are
 * stored; rows are never changed, and deleted only past the account's retention
 * (docs/decisions/026-teams-and-audit.md).
 */
import type {
  AuditActorKind,
  AuditEvent,
  AuditFilters,
  AuditListQuery,
} from "../../../shared/schemas/audit.ts";
import type { Caller } from "../../lib/caller.ts";
import { cursorTime, notACursor } from "../../lib/cursor-time.ts";
import type { AuditFilter, AuditRepository } from "./audit.repository.ts";
import { CSV_HEADER, csvRow } from "./audit-csv.ts";
import { labelFromInput, labelOf, targetKindOf } from "./audit-labels.ts";
import { masked } from "./mask.ts";

/** Who acted, as the log names them. */
export type Actor = {
  kind: "member" | "api_key" | "system";
  id: string | null;
  /** The member's email, "API key 1a2b3c4d", or what the system did it for. */
  name: string;
};

export type AuditEntry = {
  accountId: string;
  actor: Actor;
  ip: string | null;
  action: string;
  target?: string | null;
  /**
   * What a person reads for the target ("bob@shop.com", "API key ci"); left out, it is looked
   * up from the action and target when the event is written (audit-labels.ts).
   */
  targetLabel?: string | null;
  before?: unknown;
  after?: unknown;
};

/** One event as every reader gets it (shared/schemas/audit.ts). */
export type AuditEventView = AuditEvent;

/** How many events housekeeping deletes at a time. */
const PRUNE_BATCH = 1000;
/** How many events the CSV export reads at a time: the whole log is never in memory. */
const EXPORT_PAGE = 500;

type Row = Awaited<ReturnType<AuditRepository["list"]>>[number];

function viewOf(row: Row): AuditEventView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_kind: row.actorKind as AuditActorKind,
    actor: row.actor,
    ip: row.ip,
    action: row.action,
    target: row.target,
    target_label: row.targetLabel,
    before: row.before,
    after: row.after,
  };
}

export function actorOf(caller: Caller): Actor {
  if (caller.via === "apiKey") {
    return {
      kind: "api_key",
      id: caller.key?.id ?? null,
      name: `API key ${caller.key?.id.slice(0, 8) ?? ""}`,
    };
  }
  return { kind: "member", id: caller.userId ?? null, name: caller.email ?? "" };
}

export type AuditPageView = { items: AuditEventView[]; next_cursor: string | null };

/**
 * What a looked-up id may be: ours (UUIDs) and Stripe's (ch_…). The gate looks before the
 * input is validated, so anything else (a NUL PostgreSQL refuses, 10 kB) is never sent.
 */
const LOOKABLE_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

export function createAuditService({ repo, now }: { repo: AuditRepository; now: () => Date }) {
  /**
   * What a person reads for the target of `action` in the account, or null: from the input
   * for a thing the call makes, else looked up by the target's id. Read before a call that
   * may delete the thing (a webhook endpoint), so the label outlives it.
   */
  async function targetLabel(
    accountId: string,
    action: string,
    target: string | null | undefined,
    input?: unknown,
  ): Promise<string | null> {
    const fromInput = labelFromInput(action, input);
    if (fromInput) return fromInput;
    const kind = targetKindOf(action, input);
    if (!kind || typeof target !== "string" || !LOOKABLE_ID.test(target)) return null;
    const facts = await repo.facts(accountId, kind, target);
    return facts ? labelOf(facts) : null;
  }

  /** A page of events, newest first, and the cursor of the next page (null at the end). */
  async function list(accountId: string, filter: AuditFilter): Promise<AuditPageView> {
    const rows = await repo.list(accountId, filter);
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    return {
      items: page.map(viewOf),
      next_cursor: rows.length > filter.limit && last ? encodeCursor(last.at, last.id) : null,
    };
  }

  /**
   * The actor as a person reads them: a key by its name beside the start of its id (the id
   * alone matches nothing on the API keys page); "API key" leads, so the filter still finds it.
   */
  async function named(accountId: string, actor: Actor): Promise<Actor> {
    if (actor.kind !== "api_key" || !actor.id || !LOOKABLE_ID.test(actor.id)) return actor;
    const key = await repo.facts(accountId, "apiKey", actor.id);
    return key?.kind === "apiKey"
      ? { ...actor, name: `API key ${key.name} (${actor.id.slice(0, 8)})` }
      : actor;
  }

  return {
    targetLabel,

    /**
     * Appends one event, secrets masked, its target's label looked up when not given, and an
     * API key named as the Settings page shows it ("API key checkout (1a2b3c4d)").
     */
    async record(entry: AuditEntry): Promise<void> {
      const actor = await named(entry.accountId, entry.actor);
      const label =
        entry.targetLabel !== undefined
          ? entry.targetLabel
          : await targetLabel(entry.accountId, entry.action, entry.target);
      await repo.append({
        accountId: entry.accountId,
        at: now(),
        actorKind: actor.kind,
        actorId: actor.id,
        actor: actor.name,
        ip: entry.ip,
        action: entry.action,
        target: entry.target ?? null,
        targetLabel: label,
        before: masked(entry.before),
        after: masked(entry.after),
      });
    },

    list,

    /**
     * A page as the console and GET /api/audit ask for it: the cursor as they got it (one
     * this server did not give out is a 400 naming `cursor`).
     */
    async page(accountId: string, query: AuditListQuery): Promise<AuditPageView> {
      const { cursor, ...filters } = query;
      const after = cursor ? decodeCursor(cursor) : undefined;
      if (after === null) throw notACursor();
      return list(accountId, { ...filters, cursor: after });
    },

    /**
     * Every event the filters match as CSV, newest first, one chunk a page (the header leads
     * the first): read a page at a time, so an export of the whole log streams rather than
     * sits in memory, and nothing is yielded before the first read has succeeded.
     */
    async *csv(accountId: string, filters: AuditFilters): AsyncGenerator<string> {
      let cursor: AuditFilter["cursor"];
      let header = CSV_HEADER;
      for (;;) {
        const rows = await repo.list(accountId, { ...filters, cursor, limit: EXPORT_PAGE });
        const page = rows.slice(0, EXPORT_PAGE);
        yield header + page.map((row) => csvRow(viewOf(row))).join("");
        header = "";
        const last = page.at(-1);
        if (rows.length <= EXPORT_PAGE || !last) return;
        cursor = { at: last.at, id: last.id };
      }
    },

    /** The export's file name, by the day it is made (UTC): audit-2026-11-20.csv. */
    csvFileName(): string {
      return `audit-${now().toISOString().slice(0, 10)}.csv`;
    },

    /**
     * Deletes events past retention in batches of `batch` until none is left, or until `more`
     * says the caller's time is up (housekeeping's budget; the rest go on its next run).
     */
    async prune(batch = PRUNE_BATCH, more: () => boolean = () => true): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = await repo.prune(batch);
        total += deleted;
        if (deleted < batch || !more()) return total;
      }
    },
  };
}

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The (at, id) a cursor names, or null when it is not one of ours: a time a row can have
 * (server/lib/cursor-time.ts) and an event's id, so nothing the database refuses reaches it.
 */
export function decodeCursor(cursor: string): { at: Date; id: string } | null {
  const parts = Buffer.from(cursor, "base64url").toString().split("|");
  const [iso, id] = parts;
  const at = cursorTime(iso);
  return parts.length === 2 && at !== undefined && id && UUID.test(id)
    ? { at: new Date(at), id }
    : null;
}

export type AuditService = ReturnType<typeof createAuditService>;
