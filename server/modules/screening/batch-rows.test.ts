import { describe, expect, it } from "vitest";
import { type CountRequest, countedOf, countInput } from "./batch-rows.ts";
import type { Probe } from "./probes.ts";

const probe = (name: string, extra: Partial<Probe> = {}): Probe => ({
  name,
  kind: "ip",
  value: `v-${name}`,
  legacy: `l-${name}`,
  since: new Date("2026-01-01T00:00:00Z"),
  measure: "count",
  ...extra,
});

const request = (probes: Probe[], history: CountRequest["history"] = null): CountRequest => ({
  accountId: "acct",
  key: "k",
  probes,
  history,
});

describe("countInput", () => {
  it("asks legacy digests of an account that may hold them, with its digest key", () => {
    const { probes, keyed } = countInput([request([probe("a")])], () => false);
    expect(keyed).toBe(false);
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatchObject({
      i: 0,
      n: 0,
      a: "acct",
      k: "k",
      v: "v-a",
      l: "l-a",
      m: "count",
    });
  });

  it("sends a batch of keyed-only accounts without legacy digests or digest key (KEYED_COUNT)", () => {
    const { probes, keyed } = countInput([request([probe("a")])], () => true);
    expect(keyed).toBe(true);
    expect(probes).toEqual([
      {
        i: 0,
        n: 0,
        a: "acct",
        kind: "ip",
        v: "v-a",
        s: expect.any(String),
        t: null,
        nb: false,
        p: null,
        u: null,
        x: null,
        m: "count",
      },
    ]);
  });

  it("sends the full form when any account of the batch may hold legacy rows", () => {
    const requests = [request([probe("a")]), { ...request([probe("b")]), accountId: "old" }];
    const { probes, keyed } = countInput(requests, (accountId) => accountId !== "old");
    expect(keyed).toBe(false);
    expect(probes.map((p) => "l" in p && p.l)).toEqual([null, "l-b"]);
  });

  it("asks a history question per screening that has one, indexed by its screening", () => {
    const history = { email: "a@b.c", card: null, since: 5 };
    const { history: items } = countInput(
      [request([]), request([probe("a")], history)],
      () => true,
    );
    expect(items).toEqual([{ i: 1, a: "acct", e: "a@b.c", c: null, s: 5 }]);
  });
});

describe("countedOf", () => {
  const requests = [
    request([probe("a"), probe("b")], { email: "x", card: null, since: 0 }),
    request([probe("c")]),
  ];
  it.each([
    { name: "no rows: every answer 0", rows: [], want: [[0, 0], [0]] },
    {
      name: "a probe's answer lands at its screening and place",
      rows: [{ i: 0, n: 1, answer: 3, vals: ["u1"] }],
      want: [[0, 3], [0]],
    },
    {
      name: "a row for no screening of the batch is ignored",
      rows: [{ i: 7, n: 0, answer: 9, vals: null }],
      want: [[0, 0], [0]],
    },
  ])("$name", ({ rows, want }) => {
    expect(countedOf(requests, rows).map((c) => c.answers)).toEqual(want);
  });

  it("reads refunds (n -1) and disputes (n -2) into the history asked for", () => {
    const counted = countedOf(requests, [
      { i: 0, n: -1, answer: 2, vals: null },
      { i: 0, n: -2, answer: 1, vals: null },
      { i: 1, n: -1, answer: 4, vals: null },
    ]);
    expect(counted[0]?.history).toEqual({ refunds: 2, disputes: 1 });
    expect(counted[1]?.history).toBeNull();
  });

  it("keeps a distinct count's values beside its answer", () => {
    const counted = countedOf(requests, [{ i: 0, n: 0, answer: 2, vals: ["u1", "u2"] }]);
    expect(counted[0]?.values).toEqual([["u1", "u2"], null]);
  });
});
