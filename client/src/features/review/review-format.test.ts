import { describe, expect, it } from "vitest";
import {
  bulkLabelSentence,
  bulkSettledSentence,
  bulkUndoneSentence,
  formatAge,
  formatOpenCount,
  isTyping,
  itemTitle,
  notSentSentence,
  settledSentence,
  sharedSentence,
  step,
  undoneSentence,
} from "./review-format.ts";

describe("review format", () => {
  it.each([
    [
      { kind: "device", events: 3, fraud: 1 },
      "3 earlier events from this device, 1 labelled fraud",
    ],
    [{ kind: "ip", events: 1, fraud: 0 }, "1 earlier event from this IP"],
    [{ kind: "card", events: 2, fraud: 2 }, "2 earlier events from this card, 2 labelled fraud"],
  ] as const)("words %j as %s", (shared, text) => {
    expect(sharedSentence(shared)).toBe(text);
  });

  const now = Date.parse("2026-11-25T12:00:00Z");
  it.each([
    ["2026-11-25T11:59:30Z", "0 min"],
    ["2026-11-25T11:48:00Z", "12 min"],
    ["2026-11-25T09:00:00Z", "3 h"],
    ["2026-11-22T12:00:00Z", "3 d"],
  ])("an item from %s has waited %s", (at, text) => {
    expect(formatAge(at, now)).toBe(text);
  });

  it.each([
    [{ open: 12, capped: false }, "12"],
    [{ open: 9999, capped: true }, "9999+"],
  ])("counts %j as %s", (count, text) => {
    expect(formatOpenCount(count)).toBe(text);
  });

  it.each([
    [0, 1, 3, 1],
    [2, 1, 3, 2],
    [0, -1, 3, 0],
    [0, 1, 0, 0],
  ] as const)("j/k from %i by %i in %i items lands on %i", (index, by, length, to) => {
    expect(step(index, by, length)).toBe(to);
  });

  it.each([
    [{ type: "trial_start", charge: null }, "trial start"],
    [{ type: null, charge: { amount: 49.5, currency: "eur" } }, "charge 49.50 EUR"],
  ] as const)("titles %j as %s", (item, text) => {
    expect(itemTitle(item)).toBe(text);
  });

  const screening = {
    type: "trial_start",
    charge: null,
    user_id: "u_123",
    email: "a@b.co",
  } as const;
  it.each([
    [screening, "deny", "Denied trial start from user u_123"],
    [{ ...screening, user_id: null }, "approve", "Approved trial start from a@b.co"],
    [
      { ...screening, user_id: null, email: null },
      "deny",
      "Denied trial start from an unknown user",
    ],
    [
      { type: null, charge: { amount: 49, currency: "usd" }, user_id: null, email: "c@d.co" },
      "approve",
      "Approved charge 49.00 USD from c@d.co",
    ],
  ] as const)("words settling %j with %s as %s", (item, decision, text) => {
    expect(settledSentence(item, decision)).toBe(text);
  });

  it("words an undo", () => {
    expect(undoneSentence(screening)).toBe(
      "Undone: trial start from user u_123 is back in the queue",
    );
  });

  it("leaves keys typed into a form field alone", () => {
    expect(isTyping({ tagName: "INPUT" } as unknown as EventTarget)).toBe(true);
    expect(isTyping({ tagName: "DIV" } as unknown as EventTarget)).toBe(false);
    expect(isTyping(null)).toBe(false);
  });

  it.each([
    [12, "fraud", 0, "Labelled 12 items fraud."],
    [1, "legitimate", 0, "Labelled 1 item legitimate."],
    [1500, "fraud", 2, "Labelled 1,500 items fraud (2 were not found)."],
    [0, "fraud", 1, "Nothing labelled (1 was not found)."],
  ] as const)("words a bulk label of %i %s (%i not found)", (n, label, missing, text) => {
    expect(bulkLabelSentence(n, label, missing)).toBe(text);
  });

  it.each([
    [3, "Undone: 3 labels removed; any earlier label stands again."],
    [1, "Undone: 1 label removed; any earlier label stands again."],
  ])("words an undone bulk label of %i", (n, text) => {
    expect(bulkUndoneSentence(n)).toBe(text);
  });

  it("says a settle that never reached the server is back in the queue", () => {
    expect(
      notSentSentence(
        { type: "trial_start", charge: null, user_id: "u_1", email: null },
        "approve",
        "Can't reach Warden",
      ),
    ).toBe(
      "Not saved: the approval of trial start from user u_1 did not reach Warden (Can't reach Warden). It is back in the queue; settle it again.",
    );
  });

  it.each([
    ["deny", 50, "Denied 50 items"],
    ["approve", 1, "Approved 1 item"],
    ["approve", 12000, "Approved 12,000 items"],
  ] as const)("words %s all of %i", (decision, n, text) => {
    expect(bulkSettledSentence(decision, n)).toBe(text);
  });
});
