/**
 * Adopting and rolling back at the same moment, over real HTTP, on the embedded database and
 * on PostgreSQL: requests fired together, never one version too many in force. Two adopts of
 * one proposal (a double click): one wins, the other is a 409 that says why. Two adopts of two
 * proposals: exactly one is in force after, whatever the order. Two rollbacks: one.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_WEIGHTS } from "../../server/engine/default-weights.ts";
import type { ScoreModels } from "../../shared/schemas/score-models.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { type Merchant, signedInMerchant } from "../helpers/merchants.ts";
import type { TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

type Answer = ScoreModels & { error?: { message: string } };

const RACED =
  /^(Version \d+ is already in force\.|The weights in force were changed at the same moment by another request; reload and try again\.)$/;

describe.each(DB_KINDS)("adopt and rollback races (%s)", (kind) => {
  let t: TestApp;
  withTestApp(kind, {}, (app) => {
    t = app;
  });

  /** A proposal as a fit stores it (the fit itself is models.int.test.ts's). */
  async function proposal(m: Merchant, version: number): Promise<string> {
    const row = await t.prisma.scoreModel.create({
      data: {
        accountId: m.accountId,
        version,
        status: "proposed",
        weights: JSON.parse(JSON.stringify({ ...DEFAULT_WEIGHTS, version: `acct-${version}` })),
        createdBy: m.email,
      },
    });
    return row.id;
  }

  const adopt = (m: Merchant, id: string) =>
    m.api.json<Answer>(`/api/scoring/models/${id}/adopt`, { method: "POST" });
  const rollback = (m: Merchant) => m.api.json<Answer>("/api/scoring/rollback", { method: "POST" });
  const adoptedRows = (m: Merchant) =>
    t.prisma.scoreModel.findMany({ where: { accountId: m.accountId, status: "adopted" } });

  it.each([2, 8])(
    "%i adopts of one proposal at once: one wins, every other is a 409",
    async (n) => {
      const m = await signedInMerchant(t, `double-${n}-${kind}@example.com`);
      const id = await proposal(m, 1);
      const answers = await Promise.all(Array.from({ length: n }, () => adopt(m, id)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...new Array(n - 1).fill(409)]);
      for (const a of answers.filter((a) => a.status === 409)) {
        expect(a.body.error?.message).toMatch(RACED);
      }
      expect((await adoptedRows(m)).map((row) => row.id)).toEqual([id]);
    },
  );

  it("adopts of two proposals at once: exactly one is in force after, and a loser hears 409", async () => {
    const m = await signedInMerchant(t, `two-${kind}@example.com`);
    for (let round = 0; round < 3; round++) {
      const ids = [await proposal(m, 2 * round + 1), await proposal(m, 2 * round + 2)];
      const answers = await Promise.all(ids.map((id) => adopt(m, id)));
      for (const a of answers) expect([200, 409]).toContain(a.status);
      for (const a of answers.filter((a) => a.status === 409)) {
        expect(a.body.error?.message).toMatch(RACED);
      }
      const adopted = await adoptedRows(m);
      expect(adopted).toHaveLength(1);
      const listed = (await m.api.json<ScoreModels>("/api/scoring/models")).body;
      expect(listed.in_force.model_id).toBe(adopted[0]?.id);
    }
  });

  it("two rollbacks of one version at once: one goes back to the defaults, the other is a 409", async () => {
    const m = await signedInMerchant(t, `rollbacks-${kind}@example.com`);
    const first = await proposal(m, 1);
    expect((await adopt(m, first)).status).toBe(200);
    const answers = await Promise.all([rollback(m), rollback(m)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await adoptedRows(m)).toEqual([]);
    // Deeper: versions 1, 2, 3 adopted in turn, four rollbacks at once. Each lands or hears a
    // 409; never two versions in force, and what is in force is one the stack held.
    const second = await proposal(m, 2);
    const third = await proposal(m, 3);
    for (const id of [first, second, third]) {
      t.clock.advance(1000);
      expect((await adopt(m, id)).status).toBe(200);
    }
    const racing = await Promise.all([rollback(m), rollback(m), rollback(m), rollback(m)]);
    for (const a of racing) expect([200, 409]).toContain(a.status);
    const landed = racing.filter((a) => a.status === 200).length;
    expect(landed).toBeGreaterThanOrEqual(1);
    const left = (await adoptedRows(m)).map((row) => row.id);
    expect(left).toEqual([[second], [first], []][landed - 1]);
  });
});
