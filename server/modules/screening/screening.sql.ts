/**
 * The SQL text of the screening path (decision 015), apart from the code that runs it
 * (screening.repository.ts): one statement counts every probe of a batch of screenings, one
 * stores a batch of screenings with their counting rows. Both take their batch as JSON, so
 * each is one prepared statement whatever the batch holds: parsed and planned once per
 * connection, one round trip, and for the write one commit, for many screenings.
 *
 * The batch arrives as `json`, not `jsonb`: json_to_recordset reads the text once, where
 * jsonb_to_recordset first builds the whole batch as a jsonb tree, the stored screenings' JSON
 * documents included. The same rows and answers (JSON null is SQL NULL in both, arrays become
 * arrays); on the embedded database storing a batch took about a third less, counting one
 * about an eighth less (alternating runs of real batches, decision 035).
 */

/** One probe of one screening in a batch, as COUNT reads it (short keys: it is sent often). */
export type CountItem = {
  /** The screening's place in the batch and the probe's place in it. */
  i: number;
  n: number;
  /** Account, and its digest key (to compare rows stored before keyed digests). */
  a: string;
  k: string;
  kind: string;
  /** The keyed digest, and the same identity's legacy one. */
  v: string;
  l: string | null;
  /** The window's start, ISO UTC. */
  s: string;
  /** The types counted: the probe's; null: every type. */
  t: readonly string[] | null;
  nb: boolean;
  p: string | null;
  lp: string | null;
  u: string | null;
  lu: string | null;
  x: string | null;
  m: "count" | "distinctSubject" | "distinctCard" | "subjects";
};

/**
 * One probe as KEYED_COUNT reads it: for an account whose counting rows are all keyed
 * (decision 013), so without the legacy digests and the digest key they are compared with.
 */
export type KeyedCountItem = Pick<
  CountItem,
  "i" | "n" | "a" | "kind" | "v" | "s" | "t" | "nb" | "p" | "u" | "x" | "m"
>;

/** One screening's Stripe history question (refunds and disputes on its email or card). */
export type HistoryItem = { i: number; a: string; e: string | null; c: string | null; s: number };

/**
 * COUNT's answers: probe n of screening i; n -1 refunds, -2 disputes. A distinct count also
 * gives its distinct users or cards (`vals`), so the screenings it cannot see yet (stored by
 * the same statement) can be added to it without counting one person twice.
 */
export type CountRow = { i: number; n: number; answer: number; vals: string[] | null };

/** The batch's probes ($1), parsed once for both of COUNT's branches. */
const PROBES = `pr AS (
    SELECT * FROM json_to_recordset($1::json) AS p(i int, n int, a text, k text, kind text,
      v text, l text, s timestamp, t text[], nb boolean, p text, lp text, u text, lu text, x text,
      m text)
  )`;

/**
 * Every probe's answer, as probes.ts defines them: rows of the identity (by its keyed or its
 * legacy digest) in the window, of the types asked, not blocked if asked, of the promo or
 * referrer asked; counted, or their distinct users or cards, the event's own left out. A
 * legacy row's user or card digest is turned into its keyed form first (identities.ts), so
 * one person is never counted twice. An index scan per probe (accountId, kind, value, at).
 * A "subjects" probe answers its end users, each `subject|first seen ms|bad`, from the
 * identity's 200 newest rows in the window, at most 27.
 */
const PROBE_ANSWERS = `
  SELECT p.i, p.n, c.answer, c.vals
  FROM pr AS p
  CROSS JOIN LATERAL (
    SELECT (CASE WHEN p.m = 'count' THEN count(*) FILTER (WHERE p.x IS NULL OR d.cmp <> p.x)
      ELSE count(DISTINCT d.cmp) FILTER (WHERE p.x IS NULL OR d.cmp <> p.x) END)::int AS answer,
      (CASE WHEN p.m = 'count' THEN NULL
      ELSE array_agg(DISTINCT d.cmp) FILTER (WHERE d.cmp IS NOT NULL AND (p.x IS NULL OR d.cmp <> p.x))
      END) AS vals
    FROM (
      SELECT CASE
        WHEN p.m = 'count' AND p.x IS NULL THEN NULL
        WHEN si."keyed" THEN (CASE WHEN p.m = 'distinctCard' THEN si."card" ELSE si."subject" END)
        ELSE left(encode(sha256(convert_to(p.k || ':' ||
          (CASE WHEN p.m = 'distinctCard' THEN si."card" ELSE si."subject" END), 'UTF8')), 'hex'), 32)
        END AS cmp
      -- The keyed digest, then the legacy one: each a range scan on (accountId, kind, value,
      -- at), reading only the window's rows, whatever their type (a busy identity, a carrier's
      -- NAT or a promo code, is read only over the window). One "value = ANY (ARRAY[keyed,
      -- legacy])" kept value out of the index condition and scanned the whole account.
      FROM (
        SELECT * FROM "ScreeningIdentity" k
        WHERE k."accountId" = p.a AND k."kind" = p.kind AND k."value" = p.v AND k."at" >= p.s
        UNION ALL
        SELECT * FROM "ScreeningIdentity" o
        WHERE p.l IS NOT NULL AND o."accountId" = p.a AND o."kind" = p.kind AND o."value" = p.l
          AND o."at" >= p.s
      ) AS si
      WHERE (p.t IS NULL OR si."type" = ANY (p.t))
        AND (NOT p.nb OR NOT si."blocked")
        AND (p.p IS NULL OR si."promo" = ANY (ARRAY[p.p, p.lp]))
        AND (p.u IS NULL OR si."userId" = ANY (ARRAY[p.u, p.lu]))
    ) AS d
  ) AS c
  WHERE p.m <> 'subjects'
  UNION ALL
  SELECT p.i, p.n, g.answer, g.vals
  FROM pr AS p
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS answer,
      array_agg(e.cmp || '|' || e.first || '|' || (CASE WHEN e.bad THEN '1' ELSE '0' END)) AS vals
    FROM (
      SELECT r.cmp, floor(extract(epoch FROM min(r."at")) * 1000)::bigint AS first,
        bool_or(r."blocked" OR r."flagged") AS bad
      FROM (
        SELECT CASE WHEN si."keyed" THEN si."subject"
          ELSE left(encode(sha256(convert_to(p.k || ':' || si."subject", 'UTF8')), 'hex'), 32)
          END AS cmp, si."at", si."blocked", si."flagged"
        -- Linked accounts (decision 023): the identity's newest rows only, so a busy one
        -- (a shop's tablet, a hosting range) costs one bounded index scan backwards.
        FROM (
          (SELECT * FROM "ScreeningIdentity" k
          WHERE k."accountId" = p.a AND k."kind" = p.kind AND k."value" = p.v AND k."at" >= p.s
            AND (p.t IS NULL OR k."type" = ANY (p.t))
          ORDER BY k."at" DESC LIMIT 200)
          UNION ALL
          (SELECT * FROM "ScreeningIdentity" o
          WHERE p.l IS NOT NULL AND o."accountId" = p.a AND o."kind" = p.kind AND o."value" = p.l
            AND o."at" >= p.s AND (p.t IS NULL OR o."type" = ANY (p.t))
          ORDER BY o."at" DESC LIMIT 200)
        ) AS si
        WHERE si."subject" IS NOT NULL
      ) AS r
      GROUP BY r.cmp
      -- Past 25 other accounts an identity is a hub whatever else it holds (links.ts): 27
      -- end users say so, however many there are, and nobody parses the rest.
      LIMIT 27
    ) AS e
  ) AS g
  WHERE p.m = 'subjects'
`;

/**
 * The refunds and disputes of each screening's email or card ($2): from Transaction, in
 * every version of COUNT.
 */
const HISTORY = `  SELECT h.i, q.n, q.answer, NULL
  FROM json_to_recordset($2::json) AS h(i int, a text, e text, c text, s int)
  CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE t."refunded" OR t."amountRefunded" > 0)::int AS refunds,
      count(*) FILTER (WHERE t."disputed")::int AS disputes
    FROM "Transaction" t
    WHERE t."accountId" = h.a AND t."created" >= h.s AND t."chargeId" IN (
      SELECT e."chargeId" FROM "Transaction" e WHERE e."accountId" = h.a AND e."email" = h.e
      UNION
      SELECT c."chargeId" FROM "Transaction" c
      WHERE c."accountId" = h.a AND c."cardFingerprint" = h.c)
  ) AS r
  CROSS JOIN LATERAL (VALUES (-1, r.refunds), (-2, r.disputes)) AS q(n, answer)`;

const COUNT_BODY = `${PROBE_ANSWERS}
  UNION ALL
  ${HISTORY.trim()}`;

/** The batch's probes ($1) for KEYED_COUNT: no legacy digests, no digest key. */
const KEYED_PROBES = `pr AS (
    SELECT * FROM json_to_recordset($1::json) AS p(i int, n int, a text, kind text, v text,
      s timestamp, t text[], nb boolean, p text, u text, x text, m text)
  )`;

/**
 * COUNT_BODY for an account whose counting rows are all keyed (every account since decision
 * 013 once its old rows are gone): the same answers, read more cheaply. One index scan per
 * probe, no legacy branch and no digest to recompute; a plain count is counted, a distinct
 * count aggregates its distinct values once (COUNT_BODY sorted them twice, for count(DISTINCT)
 * and for array_agg(DISTINCT)) and its answer is how many there are. On the embedded database
 * this halved the cost of a batch's probes (the same answers for 40 batches of real probes).
 */
const KEYED_BODY = `
  SELECT p.i, p.n,
    CASE WHEN p.m = 'count' THEN c.answer ELSE coalesce(cardinality(c.vals), 0) END AS answer,
    c.vals
  FROM pr AS p
  CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE p.x IS NULL OR d.cmp <> p.x)::int AS answer,
      array_agg(DISTINCT d.cmp) FILTER (WHERE p.m <> 'count' AND d.cmp IS NOT NULL
        AND (p.x IS NULL OR d.cmp <> p.x)) AS vals
    FROM (
      SELECT CASE WHEN p.m = 'distinctCard' THEN k."card" ELSE k."subject" END AS cmp
      FROM "ScreeningIdentity" k
      WHERE k."accountId" = p.a AND k."kind" = p.kind AND k."value" = p.v AND k."at" >= p.s
        AND (p.t IS NULL OR k."type" = ANY (p.t))
        AND (NOT p.nb OR NOT k."blocked")
        AND (p.p IS NULL OR k."promo" = p.p)
        AND (p.u IS NULL OR k."userId" = p.u)
    ) AS d
  ) AS c
  WHERE p.m <> 'subjects'
  UNION ALL
  SELECT p.i, p.n, g.answer, g.vals
  FROM pr AS p
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS answer,
      array_agg(e.cmp || '|' || e.first || '|' || (CASE WHEN e.bad THEN '1' ELSE '0' END)) AS vals
    FROM (
      SELECT r."subject" AS cmp, floor(extract(epoch FROM min(r."at")) * 1000)::bigint AS first,
        bool_or(r."blocked" OR r."flagged") AS bad
      FROM (
        SELECT k."subject", k."at", k."blocked", k."flagged" FROM "ScreeningIdentity" k
        WHERE k."accountId" = p.a AND k."kind" = p.kind AND k."value" = p.v AND k."at" >= p.s
          AND (p.t IS NULL OR k."type" = ANY (p.t))
        ORDER BY k."at" DESC LIMIT 200
      ) AS r
      WHERE r."subject" IS NOT NULL
      GROUP BY r."subject"
      LIMIT 27
    ) AS e
  ) AS g
  WHERE p.m = 'subjects'
  UNION ALL
  ${HISTORY.trim()}`;

export const COUNT = `WITH ${PROBES} ${COUNT_BODY}`;

/** COUNT for a batch whose accounts hold keyed counting rows only ($1: KeyedCountItem). */
export const KEYED_COUNT = `WITH ${KEYED_PROBES} ${KEYED_BODY}`;

/** A screening's own columns, as the service hands them over and as INSERT stores them. */
export type ScreeningColumns = {
  accountId: string;
  type: string;
  userId: string | null;
  email: string | null;
  ip: string | null;
  country: string | null;
  decision: string;
  score: number;
  reasons: unknown;
  monitored: unknown;
  input: unknown;
  blocked: boolean;
};

/** One screening as INSERT stores it, with its counting rows. */
export type InsertItem = ScreeningColumns & {
  id: string;
  createdAt: string;
  rules: readonly string[];
  collectIp: string | null;
  /** What the browser collector collected; the column keeps its wire name, `signals`. */
  signals: unknown;
  unavailable: unknown;
  allowed: unknown;
  linked: unknown;
  contributions: unknown;
  subject: string | null;
  user: string | null;
  card: string | null;
  promo: string | null;
  /** [kind, keyed digest] per identity some probe can count (probes.ts, countable). */
  ids: readonly (readonly [string, string])[];
};

/** The screenings of JSON array `param` (x), and their insert (s): the start of a WITH. */
const screeningsOf = (param: string) => `
  x AS (
    SELECT * FROM json_to_recordset(${param}::json) AS x(id text, "accountId" text,
      "createdAt" timestamp, type text, "userId" text, email text, ip text, country text,
      decision text, score int, rules text[], reasons jsonb, monitored jsonb, input jsonb,
      "collectIp" text, signals jsonb, unavailable jsonb, allowed jsonb, linked jsonb, contributions jsonb,
      subject text,
      "user" text, card text, promo text, blocked boolean, ids jsonb)
  ), s AS (
    INSERT INTO "Screening" ("id", "accountId", "createdAt", "type", "userId", "email", "ip",
      "country", "decision", "score", "rules", "reasons", "monitored", "input", "collectIp",
      "signals", "unavailable", "allowed", "linked", "contributions")
    SELECT id, "accountId", "createdAt", type, "userId", email, ip, country, decision, score,
      rules, reasons, monitored, input, "collectIp", signals, unavailable, allowed, linked,
      contributions
    FROM x
  )`;

/** The counting rows of the screenings in x. */
const IDENTITIES = `
  INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at",
    "subject", "userId", "card", "promo", "blocked", "keyed")
  SELECT x."accountId", x.id, pair ->> 0, pair ->> 1, x.type, x."createdAt", x.subject,
    x."user", x.card, x.promo, x.blocked, true
  FROM x CROSS JOIN LATERAL jsonb_array_elements(x.ids) AS pair`;

/** A batch of screenings and their counting rows, in one statement (so one commit). */
export const INSERT = `WITH ${screeningsOf("$1")} ${IDENTITIES}`;

/**
 * One decision event of a screening in the batch (screening.blocked, screening.review), as
 * DELIVERIES reads it: account, event id, type, body as sent, and when.
 */
export type EventItem = { a: string; e: string; t: string; b: string; at: string };

/**
 * The deliveries of the events in JSON array `param`: one per endpoint of the account that
 * wants the event's type and is not disabled, as the outbox stages them
 * (webhooks.repository.ts, stage). The endpoints are read in the statement, so one removed
 * meanwhile is not delivered to and cannot fail the batch.
 */
const deliveriesOf = (param: string) => `
  INSERT INTO "WebhookDelivery" ("id", "accountId", "endpointId", "eventId", "eventType",
    "body", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid()::text, ev.a, w."id", ev.e, ev.t, ev.b, ev.at, ev.at
  FROM json_to_recordset(${param}::json) AS ev(a text, e text, t text, b text, at timestamp)
  JOIN "WebhookEndpoint" w ON w."accountId" = ev.a AND ev.t = ANY (w."events")
    AND w."disabledAt" IS NULL`;

/**
 * INSERT, with the decision events of the batch's screenings ($2) stored by the same
 * statement: the screenings and their events commit together or not at all. Only a batch
 * with an event some endpoint wants takes it; every other keeps INSERT.
 */
export const INSERT_WITH_EVENTS = `WITH ${screeningsOf("$1")}, i AS (${IDENTITIES})
  ${deliveriesOf("$2")}`;

/**
 * One batch stored ($3, as INSERT) and the next one counted ($1 and $2, as COUNT), in one
 * statement: one round trip and one commit a cycle (screening-batches.ts). The count does not
 * see the rows stored beside it (one snapshot): the caller counts those from memory.
 */
export const STORE_AND_COUNT = `WITH ${screeningsOf("$3")}, i AS (${IDENTITIES}), ${PROBES}
  ${COUNT_BODY.trim()}`;

/** STORE_AND_COUNT, with the stored batch's decision events ($4) as INSERT_WITH_EVENTS. */
export const STORE_AND_COUNT_WITH_EVENTS = `WITH ${screeningsOf("$3")}, i AS (${IDENTITIES}),
  e AS (${deliveriesOf("$4")}), ${PROBES}
  ${COUNT_BODY.trim()}`;

/** STORE_AND_COUNT for a batch of keyed accounts only (KEYED_COUNT's probes). */
export const KEYED_STORE_AND_COUNT = `WITH ${screeningsOf("$3")}, i AS (${IDENTITIES}),
  ${KEYED_PROBES} ${KEYED_BODY.trim()}`;

/** STORE_AND_COUNT_WITH_EVENTS for a batch of keyed accounts only. */
export const KEYED_STORE_AND_COUNT_WITH_EVENTS = `WITH ${screeningsOf("$3")},
  i AS (${IDENTITIES}), e AS (${deliveriesOf("$4")}), ${KEYED_PROBES}
  ${KEYED_BODY.trim()}`;

/**
 * Whether an account still holds counting rows from before keyed digests (decision 013),
 * answered from a partial index of those rows alone.
 */
export const LEGACY_ROWS = `
  SELECT EXISTS (SELECT 1 FROM "ScreeningIdentity"
    WHERE "accountId" = $1 AND NOT "keyed") AS legacy`;
