import { describe, expect, it } from "vitest";
import {
  type ChargeVerdict,
  type CheckoutRow,
  createRowSet,
  FOLDS,
  foldOf,
  labelledSet,
  type OwnWord,
  stripeVerdicts,
  topSource,
  unpack,
} from "./training-set.ts";

const T0 = Date.parse("2026-03-01T12:00:00Z");
const DAY = 86_400_000;
const at = (days: number) => new Date(T0 + days * DAY);
const unix = (days: number) => Math.floor((T0 + days * DAY) / 1000);

describe("stripeVerdicts", () => {
  const screening: CheckoutRow = {
    id: "s1",
    createdAt: at(0),
    email: "buyer@example.com",
    card: "fp_1",
  };
  const charge = (over: Partial<ChargeVerdict>): ChargeVerdict => ({
    email: null,
    card: null,
    created: unix(1),
    y: 1,
    by: null,
    ...over,
  });

  it.each([
    ["a fraud charge with its email a day later", [charge({ email: "Buyer@Example.com" })], 1],
    ["a fraud charge with its card", [charge({ card: "fp_1" })], 1],
    ["a settled charge with its email", [charge({ email: "buyer@example.com", y: 0 })], 0],
    [
      "fraud and settled: fraud wins",
      [
        charge({ card: "fp_1", y: 0 }),
        charge({ email: "buyer@example.com", y: 1 }),
        charge({ card: "fp_1", y: 0 }),
      ],
      1,
    ],
    ["a charge made before the screening", [charge({ card: "fp_1", created: unix(-1) })], null],
    ["a charge 61 days after", [charge({ card: "fp_1", created: unix(61) })], null],
    ["a charge 60 days after", [charge({ card: "fp_1", created: unix(60) })], 1],
    ["another email and card", [charge({ email: "else@example.com", card: "fp_2" })], null],
  ] as const)("%s", (_name, charges, expected) => {
    const out = stripeVerdicts(charges, [screening]);
    expect(out.map((v) => v.y)).toEqual(expected === null ? [] : [expected]);
    if (expected !== null) expect(out[0]).toMatchObject({ id: "s1", source: "stripe" });
  });

  it("keeps who labelled the charge that decided: the fraud one over a settled one", () => {
    const out = stripeVerdicts(
      [
        charge({ card: "fp_1", y: 0, by: "member:u1" }),
        charge({ email: "buyer@example.com", y: 1, by: "api_key:k1" }),
        charge({ card: "fp_1", y: 0, by: null }),
      ],
      [screening],
    );
    expect(out).toMatchObject([{ y: 1, by: "api_key:k1" }]);
    expect(stripeVerdicts([charge({ card: "fp_1", y: 0 })], [screening])[0]?.by).toBeNull();
  });

  it("matches nothing for a screening without email or card", () => {
    expect(
      stripeVerdicts(
        [charge({ email: null, card: null })],
        [{ ...screening, email: null, card: null }],
      ),
    ).toEqual([]);
  });
});

describe("topSource: the member or API key that gave the most verdicts", () => {
  it.each([
    ["none", [], null],
    ["Stripe's alone: no one", [null, null], null],
    ["one key", ["api_key:k", "api_key:k", null], { kind: "api_key", id: "k", labels: 2 }],
    [
      "the larger of two",
      ["member:u", "api_key:k", "member:u", "api_key:k", "member:u"],
      { kind: "member", id: "u", labels: 3 },
    ],
    [
      "a tie: the first to get there",
      ["member:a", "member:b"],
      { kind: "member", id: "a", labels: 1 },
    ],
    [
      "an id with a colon in it",
      ["api_key:API key 1a:2b"],
      { kind: "api_key", id: "API key 1a:2b", labels: 1 },
    ],
  ] as const)("%s", (_name, keys, expected) => {
    const tally = new Map<string, number>();
    for (const key of keys) if (key) tally.set(key, (tally.get(key) ?? 0) + 1);
    expect(topSource(tally)).toEqual(expected);
  });
});

describe("labelledSet", () => {
  const word = (
    id: string,
    days: number,
    atDays: number,
    y: 0 | 1,
    source: OwnWord["source"],
    by: string | null = `member:${id}`,
  ): OwnWord => ({
    id,
    createdAt: at(days),
    at: at(atDays),
    y,
    source,
    by,
  });

  it("keeps a screening's newest word, its own over Stripe's, newest screening first", () => {
    const { rows, capped } = labelledSet(
      [
        word("a", 1, 2, 1, "reviews"), // denied in review…
        word("a", 1, 3, 0, "labels"), // …then labelled legitimate: legitimate
        word("b", 2, 5, 1, "labels"), // labelled fraud…
        word("b", 2, 4, 0, "reviews"), // …after it was approved: fraud
      ],
      [
        { id: "b", createdAt: at(2), y: 0, source: "stripe", by: null },
        { id: "c", createdAt: at(0), y: 1, source: "stripe", by: null },
      ],
    );
    expect(rows.map((r) => [r.id, r.y, r.source, r.by])).toEqual([
      ["b", 1, "labels", "member:b"],
      ["a", 0, "labels", "member:a"],
      ["c", 1, "stripe", null],
    ]);
    expect(capped).toBe(false);
  });

  it("keeps the newest `cap` and says it capped", () => {
    const own = [0, 1, 2, 3].map((d) => word(`s${d}`, d, d, 1, "labels"));
    const { rows, capped } = labelledSet(own, [], 2);
    expect(rows.map((r) => r.id)).toEqual(["s3", "s2"]);
    expect(capped).toBe(true);
  });
});

describe("foldOf", () => {
  it("gives an id the same fold every time, and spreads ids over all folds", () => {
    expect(foldOf("7f1c0c1e-5b1a-4c43-9b53-5c7e2f1d9a10")).toBe(
      foldOf("7f1c0c1e-5b1a-4c43-9b53-5c7e2f1d9a10"),
    );
    const sizes = new Array(FOLDS).fill(0);
    for (let i = 0; i < 5000; i++) sizes[foldOf(`screening-${i}`)] += 1;
    for (const size of sizes) expect(size).toBeGreaterThan(800);
  });
});

describe("createRowSet", () => {
  it("counts identical rows once with their number, drops unknown signals, and packs losslessly", () => {
    const set = createRowSet();
    const row = {
      type: "signup",
      x: { account_new: 1, hosting_network: 1, retired_signal: 3 },
      rule: null,
    };
    set.add({ ...row, id: "same" }, 1);
    set.add({ ...row, id: "same", x: { hosting_network: 1, account_new: 1 } }, 1);
    set.add({ id: "other", type: "checkout", x: { disputes: 1.585 }, rule: "review" }, 0);
    set.add({ id: "listed", type: "checkout", x: {}, rule: "allow" }, 0);
    expect([set.fraud, set.legitimate]).toEqual([2, 2]);
    const rows = unpack(set.packed());
    expect(rows).toEqual([
      {
        fold: foldOf("same"),
        type: "signup",
        rule: null,
        y: 1,
        x: { account_new: 1, hosting_network: 1 },
        count: 2,
      },
      {
        fold: foldOf("other"),
        type: "checkout",
        rule: "review",
        y: 0,
        x: { disputes: 1.585 },
        count: 1,
      },
      { fold: foldOf("listed"), type: "checkout", rule: "allow", y: 0, x: {}, count: 1 },
    ]);
  });
});
