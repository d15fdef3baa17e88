import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeRows, encodeRows, labelledOf } from "./recorded-rows.ts";
import type { Labelled } from "./train.ts";

const row = (over: Partial<Labelled>): Labelled => ({
  world: "random-1",
  seed: 1,
  type: "signup",
  attack: false,
  signals: {},
  ...over,
});

describe("recorded training rows", () => {
  const plays: Labelled[][] = [
    [
      row({ signals: { signups_ip: 2.5, account_new: 1 } }),
      row({ type: "trial", attack: true, signals: { email_random: 0.125 } }),
      row({ type: "request" }),
    ],
    [row({ world: "random-2", seed: 2, attack: true, signals: { signups_ip: -1 } })],
  ];

  it("give back every play's rows: world, seed, type, label and signals", () => {
    expect(decodeRows(encodeRows(plays))).toEqual(plays);
  });

  it("are the same bytes for the same rows, so a recording changes only when the rows do", () => {
    expect(encodeRows(plays).equals(encodeRows(structuredClone(plays)))).toBe(true);
    const [first, ...rest] = structuredClone(plays);
    const moved = [
      [row({ signals: { signups_ip: 2.75, account_new: 1 } }), ...(first ?? []).slice(1)],
      ...rest,
    ];
    expect(encodeRows(moved).equals(encodeRows(plays))).toBe(false);
  });

  it("keep only what the fit reads of a collected row", () => {
    const collected = { ...row({ signals: { x: 1 } }), score: 40, actor: "a", decision: "allow" };
    expect(labelledOf(collected)).toEqual(row({ signals: { x: 1 } }));
  });

  it("refuse a recording of another version", () => {
    const other = gzipSync(JSON.stringify({ version: 2, signals: [], plays: [] }));
    expect(() => decodeRows(other)).toThrow("unknown version 2");
  });
});
