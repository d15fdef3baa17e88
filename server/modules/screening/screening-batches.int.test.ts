/**
 * Screenings judged in batches on both databases: screenings sent at once share one batch and
 * each is counted with the ones before it (plain counts, in arrival order, blocked ones left
 * out where asked; distinct counts without counting a person twice); a batch counted while the
 * one before is still being written counts those screenings once, whether or not its count
 * statement saw them committed; every screening answered is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, openTestDatabase } from "../../../test/helpers/databases.ts";
import type { Database } from "../../db/database.ts";
import { type Identities, type IdentityKind, identitiesOf } from "./identities.ts";
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
      ids,
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

  describe("a batch counted while the one before is being written", () => {
    /** A gate: `wait` resolves once `open` is called. */
    function gate() {
      let open = () => {};
      const wait = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { wait, open };
    }

    /** Batches over the real repository whose writes and counts wait for the gates given. */
    function gated(gates: { write?: Promise<void>; count?: Promise<void> }) {
      const repo = createScreeningRepository(db.prisma, db.screeningSql);
      const counts: string[][] = [];
      const slow: typeof repo = {
        ...repo,
        async countBatch(requests, unseen = []) {
          counts.push([...unseen]);
          await gates.count;
          return repo.countBatch(requests, unseen);
        },
        async storeBatch(screenings, ids) {
          await gates.write;
          return repo.storeBatch(screenings, ids);
        },
      };
      return { batches: createScreeningBatches(slow), counts };
    }

    const device = (name: string, user: string, i: number, measure: Probe["measure"]) =>
      screening(
        new Date(),
        { ip: `192.0.2.${i}`, device: name, user },
        { kind: "device", measure },
      );

    it("counts a screening still being written from memory", async () => {
      const writes = gate();
      const { batches: slow, counts } = gated({ write: writes.wait });
      const first = slow(device("dev-unseen", "x-1", 1, "distinctSubject"));
      // The first is judged and waits to be written; the second is counted meanwhile.
      await expect.poll(() => counts.length).toBe(1);
      const second = slow(device("dev-unseen", "x-2", 2, "distinctSubject"));
      await expect.poll(() => counts.length).toBe(2);
      expect(counts[1]).toHaveLength(1);
      writes.open();
      expect((await first).answer).toBe(0);
      expect((await second).answer).toBe(1);
      // Both committed: the next counts them from the database, each once.
      const third = await batches(device("dev-unseen", "x-3", 3, "distinctSubject"));
      expect(third.answer).toBe(2);
    });

    it("counts once a screening committed after the count was asked for", async () => {
      const writes = gate();
      const count = gate();
      let counting = false;
      const { batches: slow, counts } = gated({
        write: writes.wait,
        // The first count goes at once; the second waits, and runs after the first is written.
        get count() {
          if (!counting) {
            counting = true;
            return undefined;
          }
          return count.wait;
        },
      });
      const first = slow(device("dev-race", "y-1", 1, "count"));
      await expect.poll(() => counts.length).toBe(1);
      const second = slow(device("dev-race", "y-2", 2, "count"));
      await expect.poll(() => counts.length).toBe(2);
      // The second count was asked with the first still unseen; the first now commits, and
      // only then does the second count reach the database, which sees it: a plain count that
      // added it from memory as well would say 2.
      writes.open();
      expect((await first).answer).toBe(0);
      count.open();
      expect((await second).answer).toBe(1);
    });
  });
});
