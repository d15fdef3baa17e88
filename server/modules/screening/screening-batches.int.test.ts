/**
 * Screenings judged in batches on both databases: screenings sent at once share one batch and
 * each is counted with the ones before it (plain counts, in arrival order, blocked ones left
 * out where asked; distinct counts without counting a person twice); a batch counted by the
 * statement that writes the one before counts those screenings once, from memory; a statement
 * the database refuses is run again one screening at a time; every screening answered is
 * stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { type Identities, type IdentityKind, identitiesOf } from "./features/identities.ts";
import type { Probe } from "./probes.ts";
import { createScreeningRepository, type StoredScreening } from "./screening.repository.ts";
import { createScreeningBatches, type Pending } from "./screening-batches.ts";

const KEY = "k".repeat(64);
const HOUR = 3_600_000;

describe.each(DB_KINDS)("screening batches (%s)", (kind) => {
  let db: Database;
  let accountId = "";
  let sizes: number[] = [];
  let batches: ReturnType<typeof createScreeningBatches>;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accountId = (await db.prisma.account.create({ data: {} })).id;
    const repo = createScreeningRepository(db.prisma, db.screeningSql);
    batches = createScreeningBatches(repo, (size) => sizes.push(size));
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A screening from `ip` on `device` by `user`, probing one identity; blocked from `limit`. */
  function screening(
    at: Date,
    who: { ip: string; device: string; user: string },
    probe: { kind: IdentityKind; measure: Probe["measure"]; notBlocked?: boolean },
    limit = Number.POSITIVE_INFINITY,
  ): Pending<{ id: string; answer: number }> {
    const ids: Identities = identitiesOf(
      { type: "request", userId: who.user, email: null, ip: who.ip, deviceId: who.device } as never,
      { normalizedEmail: null, ipKey: who.ip, subnetKey: null, disposable: false },
      KEY,
    );
    const value = ids.values[probe.kind] as string;
    const probes: Probe[] = [
      {
        name: "requestsLastMinute.ip",
        kind: probe.kind,
        value,
        legacy: ids.legacy[probe.kind],
        since: new Date(at.getTime() - HOUR),
        types: ["request"],
        measure: probe.measure,
        notBlocked: probe.notBlocked,
        except: probe.measure === "count" ? undefined : ids.subject,
      },
    ];
    return {
      accountId,
      key: KEY,
      probes,
      history: null,
      judge(counted) {
        const answer = counted.answers[0] ?? -1;
        const blocked = answer >= limit;
        const row: StoredScreening = {
          accountId,
          createdAt: at,
          type: "request",
          userId: who.user,
          email: null,
          ip: who.ip,
          country: null,
          decision: blocked ? "block" : "allow",
          score: 0,
          rules: [],
          reasons: [],
          monitored: [],
          input: { type: "request" },
          blocked,
          identities: ids,
        };
        return { row, result: (id: string) => ({ id, answer }) };
      },
    };
  }

  it("counts each screening of one batch with the ones before it, and stores them all", async () => {
    sizes = [];
    const at = new Date();
    const sent = Array.from({ length: 10 }, (_, i) =>
      batches(
        screening(
          at,
          { ip: "198.51.100.1", device: `d-${i}`, user: `u-${i}` },
          { kind: "ip", measure: "count" },
        ),
      ),
    );
    const answered = await Promise.all(sent);
    expect(answered.map((a) => a.answer)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([10]);
    const stored = await db.prisma.screening.count({
      where: { id: { in: answered.map((a) => a.id) } },
    });
    expect(stored).toBe(10);
    // The next batch reads them from the database.
    const next = await batches(
      screening(
        at,
        { ip: "198.51.100.1", device: "d-x", user: "u-x" },
        { kind: "ip", measure: "count" },
      ),
    );
    expect(next.answer).toBe(10);
  });

  it("leaves blocked screenings of the batch out of a not-blocked count", async () => {
    sizes = [];
    const at = new Date();
    const answered = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        batches(
          screening(
            at,
            { ip: "198.51.100.2", device: `e-${i}`, user: `v-${i}` },
            { kind: "ip", measure: "count", notBlocked: true },
            2,
          ),
        ),
      ),
    );
    // The first two are allowed; from the third on each is blocked and so not counted.
    expect(answered.map((a) => a.answer)).toEqual([0, 1, 2, 2, 2]);
    expect(sizes).toEqual([5]);
  });

  it("counts distinct users of an identity already in the batch, in the same batch", async () => {
    sizes = [];
    const at = new Date();
    const answered = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        batches(
          screening(
            at,
            { ip: `203.0.113.${i}`, device: "shared-device", user: `w-${i}` },
            { kind: "device", measure: "distinctSubject" },
          ),
        ),
      ),
    );
    // Other users on the device before each: exact, in one batch.
    expect(answered.map((a) => a.answer)).toEqual([0, 1, 2, 3]);
    expect(sizes).toEqual([4]);
    // The same user again is no new user; a fifth is.
    const again = await batches(
      screening(
        at,
        { ip: "203.0.113.9", device: "shared-device", user: "w-0" },
        { kind: "device", measure: "distinctSubject" },
      ),
    );
    expect(again.answer).toBe(3);
  });

  describe("a batch counted by the statement that writes the one before", () => {
    /** A gate: `wait` resolves once `open` is called. */
    function gate() {
      let open = () => {};
      const wait = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { wait, open };
    }

    /**
     * Batches over the real repository whose first statement, once answered, waits for `first`
     * before the batch is judged (so a screening sent meanwhile shares the next statement with
     * the first batch's write); what each statement was given is noted.
     */
    function heldAfterFirst(first: Promise<void>) {
      const repo = createScreeningRepository(db.prisma, db.screeningSql);
      const statements: { written: number; counted: number }[] = [];
      const held: typeof repo = {
        ...repo,
        async storeAndCount(screenings, ids, requests) {
          statements.push({ written: screenings.length, counted: requests.length });
          const counted = await repo.storeAndCount(screenings, ids, requests);
          if (statements.length === 1) await first;
          return counted;
        },
      };
      return { batches: createScreeningBatches(held), statements };
    }

    const on = (device: string, user: string, i: number, measure: Probe["measure"]) =>
      screening(new Date(), { ip: `192.0.2.${i}`, device, user }, { kind: "device", measure });

    it.each([
      ["count", 1],
      ["distinctSubject", 1],
    ] as const)("counts the screening written beside it from memory (%s)", async (measure, n) => {
      const judged = gate();
      const { batches: held, statements } = heldAfterFirst(judged.wait);
      const device = `dev-beside-${measure}`;
      const first = held(on(device, "x-1", 1, measure));
      await expect.poll(() => statements.length).toBe(1);
      const second = held(on(device, "x-2", 2, measure));
      judged.open();
      expect((await first).answer).toBe(0);
      // The second was counted by the statement that wrote the first, which cannot see it.
      expect((await second).answer).toBe(n);
      expect(statements[1]).toEqual({ written: 1, counted: 1 });
      // Both committed: the next counts them from the database, each once.
      const third = await batches(on(device, "x-3", 3, measure));
      expect(third.answer).toBe(2);
    });

    it("answers each screening alone when the database refuses one of a statement", async () => {
      const judged = gate();
      const { batches: held, statements } = heldAfterFirst(judged.wait);
      const device = "dev-refused";
      const bad = on(device, "z-1", 1, "count");
      const judge = bad.judge;
      // A value PostgreSQL cannot store (the API refuses it at the edge; here it gets through).
      bad.judge = (counted) => {
        const out = judge(counted);
        return { ...out, row: { ...out.row, email: "nul\u0000byte@example.com" } };
      };
      const refused = held(bad);
      const good = held(on(device, "z-2", 2, "count"));
      await expect.poll(() => statements.length).toBe(1);
      const next = held(on(device, "z-3", 3, "count"));
      judged.open();
      await expect(refused).rejects.toThrow();
      expect((await good).answer).toBe(1);
      // Counted again once the writes went one by one: the refused one was never stored.
      expect((await next).answer).toBe(1);
      const stored = await db.prisma.screening.count({ where: { userId: { in: ["z-1", "z-2"] } } });
      expect(stored).toBe(1);
    });
  });
});
