import { describe, expect, it } from "vitest";
import { buildCharge } from "../../../../test/fixtures/stripe.ts";
import { type ChargeSnapshot, mergeSnapshots, outcomeOf, snapshotOf } from "./charge-state.ts";

/** Every ordering of a list (small lists only). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** One charge's life as Stripe reports it, each copy tagged with its event's time. */
const base = { id: "ch_life", amount: 5000, created: 1_700_000_000, riskScore: 42 };
const LIFE: { at: number; snapshot: ChargeSnapshot }[] = [
  { at: 1, snapshot: snapshotOf(buildCharge({ ...base, status: "pending", captured: false })) },
  { at: 2, snapshot: snapshotOf(buildCharge({ ...base, captured: false })) },
  { at: 3, snapshot: snapshotOf(buildCharge({ ...base, captured: true })) },
  {
    at: 4,
    snapshot: snapshotOf(buildCharge({ ...base, captured: true, amountRefunded: 1000 })),
  },
  {
    at: 5,
    snapshot: snapshotOf(
      buildCharge({ ...base, captured: true, amountRefunded: 1000, disputed: true }),
    ),
  },
];

/** Folds deliveries the way ingestion does: an older copy never replaces newer fields. */
function deliver(order: typeof LIFE): ChargeSnapshot {
  let stored: ChargeSnapshot | null = null;
  let lastAt = 0;
  for (const { at, snapshot } of order) {
    stored = stored ? mergeSnapshots(stored, snapshot, at < lastAt) : snapshot;
    lastAt = Math.max(lastAt, at);
  }
  if (!stored) throw new Error("no deliveries");
  return stored;
}

describe("mergeSnapshots", () => {
  const inOrder = deliver(LIFE);

  it("ends where the charge ended when delivered in order", () => {
    expect(inOrder).toMatchObject({
      status: "succeeded",
      captured: true,
      amountRefunded: 1000,
      disputed: true,
      riskScore: 42,
    });
  });

  it.each(permutations(LIFE).map((order) => [order.map((e) => e.at).join(","), order] as const))(
    "delivered as %s gives the same final state",
    (_label, order) => {
      expect(deliver([...order])).toEqual(inOrder);
    },
  );

  it.each([
    {
      name: "a late pending copy never moves a succeeded charge back",
      stored: { status: "succeeded" as const },
      incoming: { status: "pending" as const },
      older: false,
      expected: { status: "succeeded" },
    },
    {
      name: "an older copy adds captured but keeps the newer fields",
      stored: { captured: false, email: "new@example.com" },
      incoming: { captured: true, email: "old@example.com" },
      older: true,
      expected: { captured: true, email: "new@example.com" },
    },
    {
      name: "Radar's verdict is kept from whichever copy has it",
      stored: { riskScore: 61, riskLevel: "elevated" },
      incoming: { riskScore: null, riskLevel: null },
      older: false,
      expected: { riskScore: 61, riskLevel: "elevated" },
    },
    {
      name: "refunds only grow",
      stored: { amountRefunded: 3000, refunded: false },
      incoming: { amountRefunded: 1000, refunded: false },
      older: false,
      expected: { amountRefunded: 3000 },
    },
  ])("$name", ({ stored, incoming, older, expected }) => {
    const start = snapshotOf(buildCharge(base));
    const merged = mergeSnapshots({ ...start, ...stored }, { ...start, ...incoming }, older);
    expect(merged).toMatchObject(expected);
  });
});

describe("outcomeOf", () => {
  const ok = {
    status: "succeeded" as const,
    captured: true,
    refunded: false,
    disputed: false,
    outcomeType: "authorized",
    blockedByRule: false,
  };
  it.each([
    { state: ok, outcome: "succeeded" },
    { state: { ...ok, captured: false }, outcome: "authorized" },
    { state: { ...ok, status: "pending" as const, captured: false }, outcome: "pending" },
    { state: { ...ok, status: "failed" as const, captured: false }, outcome: "failed" },
    { state: { ...ok, refunded: true }, outcome: "refunded" },
    { state: { ...ok, blockedByRule: true, refunded: true }, outcome: "blocked" },
    { state: { ...ok, outcomeType: "blocked", status: "failed" as const }, outcome: "blocked" },
    { state: { ...ok, disputed: true, blockedByRule: true }, outcome: "disputed" },
  ])("$outcome", ({ state, outcome }) => {
    expect(outcomeOf(state)).toBe(outcome);
  });
});
