/**
 * Linked accounts from the counting rows of a screening's shared identities (decision 023),
 * one hop: per identity kind, the other accounts on it; an identity with more than HUB_LIMIT
 * of them is a hub (a carrier's NAT, an office's tablet) and links nobody; the rest are merged
 * per account, newest first, at most LINK_CAP. The same bounds as the screening path's summary
 * (engine/links.ts), so the list and the stored summary agree. Pure.
 */
import type { LinkedAccount } from "../../../shared/schemas/review.ts";
import { LINK_KINDS, type LinkCount, type LinkKind } from "../../../shared/schemas/screening.ts";
import { HUB_LIMIT, LINK_CAP } from "../../engine/links.ts";
import type { LinkedScreening, LinkRow } from "./links.repository.ts";

/** One linked account before its screenings are read. */
export type AccountDraft = {
  subject: string;
  first: Date;
  last: Date;
  /** Its screenings on the shared identities, newest first. */
  screeningIds: string[];
  through: LinkKind[];
  blocked: boolean;
};

/** The accounts linked through the rows (not `self`), and the hubs left out. */
export function groupLinks(
  rows: readonly LinkRow[],
  self: string | null,
): { accounts: AccountDraft[]; hubs: LinkCount[] } {
  // Each kind's accounts and their rows (a kind's keyed and unkeyed rows are one identity).
  const byKind = new Map<LinkKind, Map<string, LinkRow[]>>();
  for (const row of rows) {
    if (row.subject === self) continue;
    const subjects = byKind.get(row.kind) ?? new Map<string, LinkRow[]>();
    byKind.set(row.kind, subjects);
    const its = subjects.get(row.subject);
    if (its) its.push(row);
    else subjects.set(row.subject, [row]);
  }
  const hubs: LinkCount[] = [];
  const linked = new Map<string, { rows: Map<string, LinkRow>; through: Set<LinkKind> }>();
  for (const kind of LINK_KINDS) {
    const subjects = byKind.get(kind) ?? new Map<string, LinkRow[]>();
    if (subjects.size > HUB_LIMIT) {
      hubs.push({ kind, accounts: subjects.size });
      continue;
    }
    for (const [subject, its] of subjects) {
      const account = linked.get(subject) ?? { rows: new Map(), through: new Set<LinkKind>() };
      linked.set(subject, account);
      account.through.add(kind);
      for (const row of its) account.rows.set(row.screeningId, row);
    }
  }
  const drafts = [...linked].map(([subject, account]) =>
    draftOf(subject, [...account.rows.values()], account.through),
  );
  drafts.sort((a, b) => b.last.getTime() - a.last.getTime() || (a.subject < b.subject ? -1 : 1));
  return { accounts: drafts.slice(0, LINK_CAP), hubs };
}

function draftOf(subject: string, rows: LinkRow[], through: Set<LinkKind>): AccountDraft {
  rows.sort((a, b) => b.at.getTime() - a.at.getTime());
  return {
    subject,
    first: (rows.at(-1) as LinkRow).at,
    last: (rows[0] as LinkRow).at,
    screeningIds: rows.map((row) => row.screeningId),
    through: LINK_KINDS.filter((kind) => through.has(kind)),
    blocked: rows.some((row) => row.blocked),
  };
}

/**
 * Each account as the detail lists it: the user id and email of its newest screening still
 * stored, and whether any of its screenings was blocked, denied, or is labelled fraud.
 */
export function linkedAccountsOf(
  drafts: readonly AccountDraft[],
  screenings: readonly LinkedScreening[],
): LinkedAccount[] {
  const byId = new Map(screenings.map((s) => [s.id, s]));
  return drafts.map((draft) => {
    const its = draft.screeningIds.flatMap((id) => byId.get(id) ?? []);
    const newest = its[0];
    return {
      user_id: newest?.userId ?? null,
      email: newest?.email ?? null,
      first_seen: draft.first.toISOString(),
      last_seen: draft.last.toISOString(),
      screenings: draft.screeningIds.length,
      blocked: draft.blocked,
      denied: its.some((s) => s.reviewStatus === "denied"),
      fraud: its.some((s) => s.label === "fraud"),
      through: draft.through,
    };
  });
}
