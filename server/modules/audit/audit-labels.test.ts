import { describe, expect, it } from "vitest";
import { labelFromInput, labelOf, type TargetFacts, targetKindOf } from "./audit-labels.ts";

describe("targetKindOf", () => {
  it.each([
    ["a removed member", "team.remove", {}, "member"],
    ["a new owner", "team.transferOwnership", {}, "member"],
    ["a revoked key", "apiKeys.revoke", {}, "apiKey"],
    ["a label on a screening", "labels.add", { subject_kind: "screening" }, "screening"],
    ["a label on a charge", "labels.add", { subject_kind: "charge" }, "charge"],
    ["a review settled on a charge", "review.settle", { kind: "charge" }, "charge"],
    ["a review settled without a kind (a screening)", "review.settle", {}, "screening"],
    ["the account switched to", "auth.switchAccount", {}, "account"],
    ["a bulk label undone", "labels.undo", {}, "labelBatch"],
    ["an action naming nothing", "rules.put", {}, null],
  ])("%s", (_name, action, input, kind) => {
    expect(targetKindOf(action, input)).toBe(kind);
  });
});

describe("labelFromInput", () => {
  it.each([
    ["an invitation: its email", "team.invite", { email: "bob@example.com" }, "bob@example.com"],
    ["a new key: its name", "apiKeys.create", { name: "ci" }, "API key ci"],
    [
      "a new endpoint: its URL",
      "webhooks.createEndpoint",
      { url: "https://h.example/w" },
      "https://h.example/w",
    ],
    [
      "a bulk label: how many, of what, as what",
      "labels.bulk",
      { subject_kind: "screening", subject_ids: ["s1", "s2"], label: "fraud" },
      "bulk label of 2 screenings as fraud",
    ],
    ["a bulk label without its ids: none", "labelsApi.bulk", { subject_kind: "charge" }, null],
    ["a key without a name: none", "apiKeys.create", { name: "" }, null],
    ["an input that is not an object: none", "team.invite", "bob", null],
    ["an action not in the table: none", "rules.put", { email: "x@example.com" }, null],
  ])("%s", (_name, action, input, label) => {
    expect(labelFromInput(action, input)).toBe(label);
  });
});

describe("labelOf", () => {
  it.each<[string, TargetFacts, string]>([
    [
      "a member reads as their email",
      { kind: "member", email: "bob@example.com" },
      "bob@example.com",
    ],
    [
      "an invitation names its email",
      { kind: "invite", email: "new@example.com" },
      "invitation to new@example.com",
    ],
    ["a key reads as its name", { kind: "apiKey", name: "ci" }, "API key ci"],
    [
      "an endpoint reads as its URL",
      { kind: "webhookEndpoint", url: "https://h.example/w" },
      "https://h.example/w",
    ],
    [
      "a delivery names its event and endpoint",
      { kind: "webhookDelivery", eventType: "decision.made", url: "https://h.example/w" },
      "decision.made to https://h.example/w",
    ],
    [
      "a screening reads as its kind, decision and score, no end user's value",
      { kind: "screening", type: "signup", decision: "review", score: 85 },
      "signup screening (sent to review, score 85)",
    ],
    [
      "a blocked screening says so",
      { kind: "screening", type: "login", decision: "block", score: 100 },
      "login screening (blocked, score 100)",
    ],
    [
      "a charge reads as its amount",
      { kind: "charge", amount: 4900, currency: "usd" },
      "charge of 49.00 USD",
    ],
    [
      "an allow entry names its kind, not its value",
      { kind: "allowEntry", allowKind: "email" },
      "allow-list entry for an email",
    ],
    ["a score model reads as its version", { kind: "scoreModel", version: 3 }, "score model v3"],
    ["an account reads as its name", { kind: "account", name: "Shop" }, "Shop"],
    [
      "a bulk label reads as how many, of what, as what",
      { kind: "labelBatch", count: 12, subjectKind: "screening", label: "fraud" },
      "bulk label of 12 screenings as fraud",
    ],
    [
      "a bulk label of one says so",
      { kind: "labelBatch", count: 1, subjectKind: "charge", label: "legitimate" },
      "bulk label of 1 charge as legitimate",
    ],
  ])("%s", (_name, facts, label) => {
    expect(labelOf(facts)).toBe(label);
  });
});
