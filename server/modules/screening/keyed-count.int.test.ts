/**
 * KEYED_COUNT, the cheaper count for accounts whose counting rows are all keyed, gives COUNT's
 * answers: the same rows of random identities, asked the same random probes (every measure,
 * with and without types, "not blocked", promo, user and the event's own subject or card left
 * out), on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../../scripts/lib/seeded-random.ts";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { COUNT, type CountItem, type CountRow, KEYED_COUNT } from "./screening.sql.ts";

const KINDS = ["ip", "device", "email"] as const;
const TYPES = ["signup", "trial", "checkout"] as const;
const HOUR = 3_600_000;

describe.each(DB_KINDS)("KEYED_COUNT against COUNT (%s)", (kind) => {
  let db: Database;
  let accountId: string;
  const random = seededRandom(44);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const maybe = <T>(value: T, chance = 0.3): T | null => (random() < chance ? value : null);
  // Few values of each, so that identities, subjects and cards repeat.
  const value = (prefix: string, n: number) => `${prefix}${Math.floor(random() * n)}`;
  const now = Date.now();

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accountId = (await db.prisma.account.create({ data: {} })).id;
    const rows = Array.from({ length: 1500 }, (_, n) => ({
      screeningId: `s${n}`,
      kind: pick(KINDS),
      value: value("v", 12),
      type: pick(TYPES),
      at: new Date(now - Math.floor(random() * 72 * HOUR)).toISOString(),
      // At most 20 subjects: a "subjects" answer lists up to 27, and which 27 of more is the
      // database's choice.
      subject: maybe(value("subject", 20), 0.9),
      userId: maybe(value("user", 10), 0.5),
      card: maybe(value("card", 15), 0.5),
      promo: maybe(value("promo", 3), 0.3),
      blocked: random() < 0.2,
      flagged: random() < 0.1,
    }));
    await db.sql.query(
      `INSERT INTO "ScreeningIdentity" ("accountId", "screeningId", "kind", "value", "type", "at",
         "subject", "userId", "card", "promo", "blocked", "flagged", "keyed")
       SELECT $1, r."screeningId", r.kind, r.value, r.type, r.at, r.subject, r."userId", r.card,
         r.promo, r.blocked, r.flagged, true
       FROM jsonb_to_recordset($2::jsonb) AS r("screeningId" text, kind text, value text,
         type text, at timestamp, subject text, "userId" text, card text, promo text,
         blocked boolean, flagged boolean)`,
      [accountId, JSON.stringify(rows)],
    );
  });

  afterAll(async () => {
    await db?.close();
  });

  function randomProbes(count: number): CountItem[] {
    return Array.from({ length: count }, (_, n) => {
      const m = pick(["count", "distinctSubject", "distinctCard", "subjects"] as const);
      return {
        i: Math.floor(n / 4),
        n: n % 4,
        a: accountId,
        k: "key",
        kind: pick(KINDS),
        v: value("v", 14),
        l: null,
        s: new Date(now - pick([1, 6, 24, 96]) * HOUR).toISOString(),
        t: random() < 0.5 ? null : [pick(TYPES), pick(TYPES)],
        nb: random() < 0.3,
        p: m === "subjects" ? null : maybe(value("promo", 3), 0.2),
        lp: null,
        u: m === "subjects" ? null : maybe(value("user", 10), 0.2),
        lu: null,
        x:
          m === "subjects"
            ? null
            : maybe(value(m === "distinctCard" ? "card" : "subject", 15), 0.5),
        m,
      };
    });
  }

  /** Rows in a comparable order; a distinct count's values as a set, a subject list sorted. */
  const normalized = (rows: CountRow[]) =>
    rows
      .map((row) => ({
        i: row.i,
        n: row.n,
        answer: Number(row.answer),
        vals: row.vals ? [...row.vals].sort() : null,
      }))
      .sort((a, b) => a.i - b.i || a.n - b.n);

  it("answers every probe as COUNT does", async () => {
    const history = JSON.stringify([{ i: 0, a: accountId, e: "a@example.com", c: null, s: 0 }]);
    let answered = 0;
    for (let batch = 0; batch < 12; batch++) {
      const probes = randomProbes(40);
      const keyedProbes = probes.map(({ k, l, lp, lu, ...rest }) => rest);
      const full = await db.sql.query<CountRow>(COUNT, [JSON.stringify(probes), history]);
      const keyed = await db.sql.query<CountRow>(KEYED_COUNT, [
        JSON.stringify(keyedProbes),
        history,
      ]);
      expect(normalized(keyed)).toEqual(normalized(full));
      answered += full.filter((row) => Number(row.answer) > 0).length;
    }
    // The probes found rows: the comparison is not of empty answers.
    expect(answered).toBeGreaterThan(150);
  });
});
