import { describe, expect, it } from "vitest";
import { deliveryRows } from "./webhooks.repository.ts";

const AT = new Date("2026-11-25T12:00:00Z");
const ENDPOINTS = [
  { id: "e-reviews", events: ["review.approved", "review.denied"] },
  { id: "e-labels", events: ["label.created", "review.approved"] },
];

describe("deliveryRows", () => {
  it.each([
    {
      name: "one row per endpoint that wants the event, sharing its id",
      events: [{ type: "review.approved" as const, data: { n: 1 } }],
      rows: [
        ["e-reviews", "evt_1", "review.approved"],
        ["e-labels", "evt_1", "review.approved"],
      ],
    },
    {
      name: "an event no endpoint wants: nothing, and no id spent",
      events: [
        { type: "screening.blocked" as const, data: {} },
        { type: "label.created" as const, data: {} },
      ],
      rows: [["e-labels", "evt_1", "label.created"]],
    },
    {
      name: "each event of a batch its own id",
      events: [
        { type: "review.denied" as const, data: { n: 1 } },
        { type: "review.denied" as const, data: { n: 2 } },
      ],
      rows: [
        ["e-reviews", "evt_1", "review.denied"],
        ["e-reviews", "evt_2", "review.denied"],
      ],
    },
  ])("$name", ({ events, rows }) => {
    let n = 0;
    const out = deliveryRows("acct", events, ENDPOINTS, AT, () => `evt_${++n}`);
    expect(out.map((row) => [row.endpointId, row.eventId, row.eventType])).toEqual(rows);
    for (const row of out) {
      expect(row).toMatchObject({ accountId: "acct", nextAttemptAt: AT, createdAt: AT });
      expect(JSON.parse(row.body)).toMatchObject({
        id: row.eventId,
        type: row.eventType,
        created: AT.getTime() / 1000,
      });
    }
  });
});
