/**
 * The rows the batch statements (screening.sql.ts) read and write, as the JSON they take: a
 * batch's probes and Stripe history questions in, its counts out, its screenings with their
 * counting rows and its decision events to insert. Pure; the repository runs the statements.
 */
import type { StripeHistory } from "../../engine/types.ts";
import type { Identities, IdentityKind } from "./features/identities.ts";
import { countable, type Probe } from "./probes.ts";
import type {
  CountItem,
  CountRow,
  EventItem,
  HistoryItem,
  InsertItem,
  KeyedCountItem,
  ScreeningColumns,
} from "./screening.sql.ts";

export type StoredScreening = ScreeningColumns & {
  createdAt: Date;
  rules: string[];
  /** The browser collector's address and what it collected, when the screening consumed a token. */
  collectIp?: string | null;
  collected?: unknown;
  /** Features that could not be computed, and why (empty: none). */
  unavailable?: readonly unknown[];
  /** The allow-list entry that decided it (screening.service.ts allowedView); null: none. */
  allowed?: unknown;
  /** The accounts linked to it (screening.service.ts linkedView); null: none asked. */
  linked?: unknown;
  /** The risk score's parts (score.ts); null: not scored. */
  contributions?: unknown;
  identities: Identities;
};

/**
 * A decision event of a screening (screening.blocked, screening.review), stored by the
 * statement that stores the screening: its id and body as delivered (decision-events.ts).
 */
export type ScreeningEventRow = {
  accountId: string;
  eventId: string;
  type: string;
  body: string;
  at: Date;
};

export const eventItems = (events: readonly ScreeningEventRow[]): EventItem[] =>
  events.map((e) => ({
    a: e.accountId,
    e: e.eventId,
    t: e.type,
    b: e.body,
    at: e.at.toISOString(),
  }));

export type HistoryQuery = { email: string | null; card: string | null; since: number };

/**
 * One screening's counts as the batch statement answered them; for a distinct count, also the
 * distinct users or cards it counted (null for plain counts).
 */
export type Counted = {
  answers: number[];
  values: (readonly string[] | null)[];
  history: StripeHistory | null;
};

/** What a batch asks: per screening, its probes and its Stripe history question. */
export type CountRequest = {
  accountId: string;
  /** The account's digest key, to compare rows stored before keyed digests. */
  key: string;
  probes: readonly Probe[];
  history: HistoryQuery | null;
};

/**
 * COUNT's JSON input for a batch: one item per probe, one per history question. An account
 * known to hold no rows stored before keyed digests is asked no legacy lookup; when no account
 * of the batch holds any, the batch is `keyed` and its probes are KEYED_COUNT's (no digest key,
 * no legacy digests: a third less to send and parse).
 */
export function countInput(
  requests: readonly CountRequest[],
  keyedOnly: (accountId: string) => boolean,
): { probes: CountItem[] | KeyedCountItem[]; history: HistoryItem[]; keyed: boolean } {
  const keyed = requests.every((r) => keyedOnly(r.accountId));
  const probes: (CountItem | KeyedCountItem)[] = [];
  const history: HistoryItem[] = [];
  for (const [i, r] of requests.entries()) {
    const legacy = !keyedOnly(r.accountId);
    for (const [n, probe] of r.probes.entries()) {
      const item: KeyedCountItem = {
        i,
        n,
        a: r.accountId,
        kind: probe.kind,
        v: probe.value,
        s: probe.since.toISOString(),
        t: probe.types ?? null,
        nb: probe.notBlocked ?? false,
        p: probe.promo ?? null,
        u: probe.user ?? null,
        x: probe.except ?? null,
        m: probe.measure,
      };
      probes.push(
        keyed
          ? item
          : {
              ...item,
              k: r.key,
              l: legacy ? (probe.legacy ?? null) : null,
              lp: legacy ? (probe.legacyPromo ?? null) : null,
              lu: legacy ? (probe.legacyUser ?? null) : null,
            },
      );
    }
    const h = r.history;
    if (h) history.push({ i, a: r.accountId, e: h.email, c: h.card, s: h.since });
  }
  return { probes: probes as CountItem[] | KeyedCountItem[], history, keyed };
}

/** COUNT's rows read back per screening of the batch, in order. */
export function countedOf(requests: readonly CountRequest[], rows: readonly CountRow[]) {
  const counted: Counted[] = requests.map((r) => ({
    answers: r.probes.map(() => 0),
    values: r.probes.map(() => null),
    history: r.history ? { refunds: 0, disputes: 0 } : null,
  }));
  for (const row of rows) {
    const c = counted[row.i];
    if (!c) continue;
    const answer = Number(row.answer);
    if (row.n >= 0) {
      c.answers[row.n] = answer;
      c.values[row.n] = row.vals;
    } else if (c.history && row.n === -1) c.history.refunds = answer;
    else if (c.history) c.history.disputes = answer;
  }
  return counted;
}

/** INSERT's JSON item for one screening. */
export function insertItem(id: string, s: StoredScreening): InsertItem {
  return {
    id,
    accountId: s.accountId,
    createdAt: s.createdAt.toISOString(),
    type: s.type,
    userId: s.userId,
    email: s.email,
    ip: s.ip,
    country: s.country,
    decision: s.decision,
    score: s.score,
    rules: s.rules,
    reasons: s.reasons,
    monitored: s.monitored,
    input: s.input,
    collectIp: s.collectIp ?? null,
    signals: s.collected ?? null,
    unavailable: s.unavailable?.length ? s.unavailable : null,
    allowed: s.allowed ?? null,
    linked: s.linked ?? null,
    contributions: s.contributions ?? null,
    subject: s.identities.subject,
    user: s.identities.values.user ?? null,
    card: s.identities.values.card ?? null,
    promo: s.identities.values.promo ?? null,
    blocked: s.blocked,
    ids: countingRows(s),
  };
}

/** A screening's counting rows, [kind, keyed digest]: those some probe can count. */
function countingRows(s: StoredScreening): [IdentityKind, string][] {
  const values = s.identities.values;
  const card = values.card !== undefined;
  const rows: [IdentityKind, string][] = [];
  for (const [kind, value] of Object.entries(values) as [IdentityKind, string][]) {
    if (countable(kind, s.type, card)) rows.push([kind, value]);
  }
  return rows;
}
