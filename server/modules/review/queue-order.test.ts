import { describe, expect, it } from "vitest";
import {
  decodeCursor,
  encodeCursor,
  keysetsAfter,
  kindsOf,
  mergeOldestFirst,
  type QueuePosition,
} from "./queue-order.ts";

const UUID = "0b5f8f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
const T = Date.parse("2026-11-20T10:00:00.250Z");

describe("queue order", () => {
  it.each([
    { kind: "screening", at: T, id: UUID },
    { kind: "charge", at: T - 250, id: "ch_3Pabc123" },
  ] as const)("a cursor of a $kind comes back as it went out", (position) => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it("reads a cursor given out before charges joined as a screening's", () => {
    const old = Buffer.from(`${new Date(T).toISOString()}|${UUID}`).toString("base64url");
    expect(decodeCursor(old)).toEqual({ kind: "screening", at: T, id: UUID });
  });

  it.each([
    ["not base64 at all", "%%%"],
    ["an unknown kind", Buffer.from(`${new Date(T).toISOString()}|refund|x`).toString("base64url")],
    [
      "a screening id that is no uuid",
      Buffer.from(`2026-11-20T10:00:00Z|screening|ch_1`).toString("base64url"),
    ],
    ["a bad time", Buffer.from(`yesterday|charge|ch_1`).toString("base64url")],
    [
      "a time PostgreSQL cannot store (year +275760)",
      Buffer.from(`+275760-09-13T00:00:00.000Z|screening|${UUID}`).toString("base64url"),
    ],
    [
      "a charge later than its 32-bit column holds",
      Buffer.from("2100-01-01T00:00:00.000Z|charge|ch_1").toString("base64url"),
    ],
  ])("refuses %s", (_name, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(/cursor/);
  });

  it.each([
    {
      after: { kind: "screening", at: T, id: UUID },
      expected: {
        screenings: { createdAt: new Date(T), id: UUID },
        charges: { createdAbove: Math.floor(T / 1000) },
      },
    },
    {
      after: { kind: "charge", at: T - 250, id: "ch_1" },
      expected: {
        screenings: { createdFrom: new Date(T - 250) },
        charges: { created: Math.floor(T / 1000), chargeId: "ch_1" },
      },
    },
    {
      // Past 2038 no charge can follow (a 32-bit column): its keyset stays within the column.
      after: { kind: "screening", at: Date.UTC(2100, 0, 1), id: UUID },
      expected: {
        screenings: { createdAt: new Date(Date.UTC(2100, 0, 1)), id: UUID },
        charges: { createdAbove: 2 ** 31 - 1 },
      },
    },
  ] as const)(
    "after a $after.kind, each table starts where the order says",
    ({ after, expected }) => {
      expect(keysetsAfter(after)).toEqual(expected);
    },
  );

  it.each([
    {
      name: "by time",
      screenings: [
        { at: 1000, id: "s1" },
        { at: 3000, id: "s2" },
      ],
      charges: [{ at: 2000, id: "c1" }],
      limit: 10,
      ids: ["s1", "c1", "s2"],
    },
    {
      name: "a charge before a screening of the same time",
      screenings: [{ at: 2000, id: "s1" }],
      charges: [
        { at: 2000, id: "c1" },
        { at: 2000, id: "c2" },
      ],
      limit: 10,
      ids: ["c1", "c2", "s1"],
    },
    {
      name: "up to the limit",
      screenings: [
        { at: 1000, id: "s1" },
        { at: 3000, id: "s2" },
      ],
      charges: [{ at: 2000, id: "c1" }],
      limit: 2,
      ids: ["s1", "c1"],
    },
    { name: "nothing", screenings: [], charges: [], limit: 3, ids: [] },
  ])("merges $name", ({ screenings, charges, limit, ids }) => {
    const as = (kind: QueuePosition["kind"]) => (p: { at: number; id: string }) => ({ ...p, kind });
    const merged = mergeOldestFirst(
      screenings.map(as("screening")),
      charges.map(as("charge")),
      limit,
    );
    expect(merged.map((p) => p.id)).toEqual(ids);
  });

  it.each([
    { filters: {}, screening: true, charge: true },
    { filters: { kind: "screening" }, screening: true, charge: false },
    { filters: { kind: "charge" }, screening: false, charge: true },
    { filters: { type: "signup" }, screening: true, charge: false },
    { filters: { kind: "charge", type: "signup" }, screening: false, charge: false },
  ] as const)(
    "filters $filters read screenings: $screening, charges: $charge",
    ({ filters, screening, charge }) => {
      expect(kindsOf(filters)).toEqual({ screening, charge });
    },
  );
});
