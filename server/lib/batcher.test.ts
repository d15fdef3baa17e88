import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher.ts";

/** A `run` whose batches the test finishes by hand, recording what each held. */
function manual<I>() {
  const batches: { items: I[]; finish: (results?: unknown[]) => void; fail: (e: Error) => void }[] =
    [];
  const run = (items: I[]) =>
    new Promise<unknown[]>((resolve, reject) => {
      batches.push({
        items,
        finish: (results) => resolve(results ?? items.map((item) => `done ${item}`)),
        fail: reject,
      });
    });
  return { batches, run };
}

/** Lets the batcher flush: a finished batch settles, then the next goes on the next turn. */
const turn = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("createBatcher", () => {
  it("sends a lone item at once, alone", async () => {
    const { batches, run } = manual<number>();
    const load = createBatcher(run, { lanes: 1, maxBatch: 10 });
    const answer = load(1);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]?.finish();
    await expect(answer).resolves.toBe("done 1");
  });

  it("sends items loaded in one turn as one batch, in order", async () => {
    const { batches, run } = manual<number>();
    const load = createBatcher(run, { lanes: 1, maxBatch: 10 });
    const answers = [1, 2, 3].map((n) => load(n));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(["done 1", "done 2", "done 3"]);
  });

  it("holds items while every lane is busy, then sends them together, at most maxBatch", async () => {
    const { batches, run } = manual<number>();
    const load = createBatcher(run, { lanes: 2, maxBatch: 3 });
    const answers = [load(1)];
    await turn();
    answers.push(load(2));
    await turn();
    // Two lanes, two batches in flight; the rest waits.
    for (const n of [3, 4, 5, 6, 7]) answers.push(load(n));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches[0]?.finish();
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3, 4, 5]]);
    batches[1]?.finish();
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    batches[2]?.finish();
    batches[3]?.finish();
    await expect(Promise.all(answers)).resolves.toHaveLength(7);
  });

  it("keeps an item that cannot join out of the batch, for the next one", async () => {
    const { batches, run } = manual<string>();
    const load = createBatcher(run, {
      lanes: 1,
      maxBatch: 10,
      canJoin: (item, batch) => !batch.includes(item),
    });
    const answers = ["a", "b", "a", "c", "a"].map((item) => load(item));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([["a", "b", "c"]]);
    batches[0]?.finish();
    await turn();
    expect(batches.map((b) => b.items)).toEqual([["a", "b", "c"], ["a"]]);
    batches[1]?.finish();
    await turn();
    expect(batches.map((b) => b.items)).toEqual([["a", "b", "c"], ["a"], ["a"]]);
    batches[2]?.finish();
    await expect(Promise.all(answers)).resolves.toHaveLength(5);
  });

  it("runs the items of a failed batch again one by one, each with its own answer", async () => {
    const sent: number[][] = [];
    const load = createBatcher(
      async (items: number[]) => {
        sent.push(items);
        if (items.includes(13)) throw new Error("thirteen");
        return items.map((n) => n * 2);
      },
      { lanes: 1, maxBatch: 10 },
    );
    const answers = await Promise.allSettled([1, 13, 3].map((n) => load(n)));
    expect(sent).toEqual([[1, 13, 3], [1], [13], [3]]);
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : String(a.reason)))).toEqual([
      2,
      "Error: thirteen",
      6,
    ]);
  });

  it("treats an answer of the wrong length as a failed batch", async () => {
    const sent: number[][] = [];
    const load = createBatcher(
      async (items: number[]) => {
        sent.push(items);
        return items.length > 1 ? [0] : items;
      },
      { lanes: 1, maxBatch: 10 },
    );
    await expect(Promise.all([load(5), load(6)])).resolves.toEqual([5, 6]);
    expect(sent).toEqual([[5, 6], [5], [6]]);
  });
});
