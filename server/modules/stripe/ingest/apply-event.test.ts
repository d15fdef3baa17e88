import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { features, policy } from "../../../../test/fixtures/engine.ts";
import {
  buildCharge,
  buildDispute,
  buildEarlyFraudWarning,
  buildEvent,
} from "../../../../test/fixtures/stripe.ts";
import { emptyRow, saved } from "../../../../test/fixtures/transaction-row.ts";
import { applyEvent, effectOf, planAction } from "./apply-event.ts";
import { snapshotOf } from "./charge-state.ts";

const T = 1_700_000_000;

function effect(event: Stripe.Event) {
  const found = effectOf(event);
  if (!found) throw new Error(`no effect for ${event.type}`);
  return found;
}

describe("effectOf", () => {
  const charge = buildCharge({ id: "ch_e" });
  it.each([
    { event: buildEvent("charge.succeeded", charge), chargeId: "ch_e", has: "snapshot" },
    {
      event: buildEvent("charge.dispute.created", buildDispute(charge)),
      chargeId: "ch_e",
      has: "disputed",
    },
    {
      event: buildEvent("radar.early_fraud_warning.created", buildEarlyFraudWarning(charge)),
      chargeId: "ch_e",
      has: "warning",
    },
  ])("$event.type is about $chargeId and carries $has", ({ event, chargeId, has }) => {
    const found = effect(event);
    expect(found.chargeId).toBe(chargeId);
    expect(found).toHaveProperty(has);
  });

  it("ignores event types Warden does not handle", () => {
    expect(effectOf(buildEvent("customer.created", { id: "cus_1" }))).toBeNull();
  });
});

describe("applyEvent", () => {
  it.each([
    {
      name: "an ordinary charge is stored and allowed",
      charge: { riskScore: 20 },
      rules: {},
      outcome: "succeeded",
      action: null,
    },
    {
      name: "a risky captured charge is refunded",
      charge: { riskScore: 82 },
      rules: {},
      outcome: "blocked",
      action: "refund",
    },
    {
      name: "a risky uncaptured charge has its PaymentIntent cancelled",
      charge: { riskScore: 82, captured: false },
      rules: {},
      outcome: "blocked",
      action: "cancel",
    },
    {
      name: "rules off: nothing is done",
      charge: { riskScore: 82 },
      rules: { rule_high_risk: false },
      outcome: "succeeded",
      action: null,
    },
    {
      name: "Radar blocked it: Stripe is the blocker, Warden does nothing",
      charge: { riskScore: 90, status: "failed" as const, outcomeType: "blocked" as const },
      rules: {},
      outcome: "blocked",
      action: null,
    },
    {
      name: "a failed charge is never refunded",
      charge: { riskScore: 82, status: "failed" as const },
      rules: {},
      outcome: "failed",
      action: null,
    },
  ])("$name", ({ charge, rules, outcome, action }) => {
    const event = buildEvent("charge.succeeded", buildCharge({ id: "ch_t", ...charge }), {
      created: T,
    });
    const result = applyEvent(emptyRow("ch_t"), effect(event), policy(rules), features());
    expect(result.update.outcome).toBe(outcome);
    expect(result.action?.kind ?? null).toBe(action);
  });

  describe("a rule that reviews", () => {
    const reviewing = policy({}, {}, { rule_high_risk: { action: "review" } });
    const risky = (options: Parameters<typeof buildCharge>[0] = {}) =>
      effect(
        buildEvent("charge.succeeded", buildCharge({ id: "ch_r", riskScore: 82, ...options }), {
          created: T,
        }),
      );

    it.each([
      {
        name: "opens a review of a succeeded charge, with the rules' reasons, and acts on nothing",
        row: emptyRow("ch_r"),
        charge: {},
        status: "open",
      },
      {
        name: "a failed charge is not reviewed",
        row: emptyRow("ch_r"),
        charge: { status: "failed" as const },
        status: undefined,
      },
      {
        name: "a settled review is not reopened by a later event",
        row: emptyRow("ch_r", { hasCharge: true, reviewStatus: "approved" }),
        charge: {},
        status: undefined,
      },
    ])("$name", ({ row, charge, status }) => {
      const { update, action } = applyEvent(row, risky(charge), reviewing, features());
      expect(action).toBeNull();
      expect(update.reviewStatus).toBe(status);
      if (status === "open") {
        expect(update.outcome).toBe("succeeded");
        expect(update.reviewReasons).toEqual([
          expect.objectContaining({ rule: "rule_high_risk", action: "review" }),
        ]);
      }
    });

    it("opens nothing during a history import (act: false)", () => {
      const { update } = applyEvent(emptyRow("ch_r"), risky(), reviewing, features(), {
        act: false,
      });
      expect(update.reviewStatus).toBeUndefined();
    });
  });

  it("keeps which rules acted on the charge; a charge they allow keeps none", () => {
    const risky = buildCharge({ id: "ch_k", riskScore: 82, cardCountry: "RU" });
    const event = buildEvent("charge.succeeded", risky, { created: T });
    const both = applyEvent(
      emptyRow("ch_k"),
      effect(event),
      policy({}, { countries: ["RU"] }),
      features(),
    );
    expect(both.action?.rules).toEqual(["rule_high_risk", "rule_country_blocked"]);
    expect(both.update).toMatchObject({
      blockedBy: "custom_rule",
      ruleKeys: ["rule_high_risk", "rule_country_blocked"],
    });
    const fine = buildEvent("charge.succeeded", buildCharge({ id: "ch_f", riskScore: 12 }));
    const allowed = applyEvent(emptyRow("ch_f"), effect(fine), policy({}), features());
    expect(allowed.update).not.toHaveProperty("ruleKeys");
  });

  it("records nothing to do during a history import (act: false)", () => {
    const event = buildEvent("charge.succeeded", buildCharge({ id: "ch_i", riskScore: 99 }));
    const { update, action } = applyEvent(emptyRow("ch_i"), effect(event), policy(), features(), {
      act: false,
    });
    expect(action).toBeNull();
    expect(update.outcome).toBe("succeeded");
  });

  it("decides once: a charge the rules acted on is not acted on again", () => {
    const row = emptyRow("ch_once", { blockedBy: "custom_rule" });
    const event = buildEvent("charge.updated", buildCharge({ id: "ch_once", riskScore: 99 }));
    const { update, action } = applyEvent(row, effect(event), policy(), features());
    expect(action).toBeNull();
    expect(update.outcome).toBe("blocked");
  });

  it("a warning before its charge keeps the warning; the charge then triggers the refund", () => {
    const charge = buildCharge({ id: "ch_w", riskScore: 10, created: T });
    const warning = buildEvent(
      "radar.early_fraud_warning.created",
      buildEarlyFraudWarning(charge),
      {
        created: T + 10,
      },
    );
    const first = applyEvent(emptyRow("ch_w"), effect(warning), policy(), features());
    expect(first.action).toBeNull();
    expect(first.update).toMatchObject({ efwActionable: true, lastEventAt: T + 10 });
    const row = saved(emptyRow("ch_w"), first.update);
    const late = buildEvent("charge.succeeded", charge, { created: T });
    const second = applyEvent(row, effect(late), policy(), features());
    expect(second.action).toMatchObject({
      kind: "refund",
      reason: "actionable early fraud warning (made_with_stolen_card)",
    });
    expect(second.update.lastEventAt).toBe(T + 10);
  });

  it("every order of a charge's events ends in the same row", () => {
    const base = { id: "ch_o", created: T, riskScore: 30 };
    const events = [
      buildEvent("charge.pending", buildCharge({ ...base, status: "pending", captured: false }), {
        created: T,
      }),
      buildEvent("charge.succeeded", buildCharge({ ...base, captured: false }), { created: T + 1 }),
      buildEvent("charge.captured", buildCharge({ ...base, captured: true }), { created: T + 2 }),
      buildEvent("charge.dispute.created", buildDispute(buildCharge(base)), { created: T + 3 }),
    ];
    const run = (order: Stripe.Event[]) => {
      let row = emptyRow("ch_o");
      for (const event of order) {
        row = saved(row, applyEvent(row, effect(event), policy(), features()).update);
      }
      return row;
    };
    const expected = run(events);
    expect(expected).toMatchObject({ status: "succeeded", captured: true, outcome: "disputed" });
    const orders = [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
      [0, 2, 1, 3],
    ];
    for (const order of orders) {
      expect(run(order.map((i) => events[i] as Stripe.Event))).toEqual(expected);
    }
  });
});

describe("planAction", () => {
  const blocking = {
    decision: "block" as const,
    score: 90,
    reasons: [
      {
        rule: "rule_high_risk" as const,
        action: "block" as const,
        message: "risk score 90 above threshold 70",
        observed: 90,
        limit: 70,
      },
    ],
    monitored: [],
  };
  const allowing = { decision: "allow" as const, score: 10, reasons: [], monitored: [] };
  const snap = (options: Parameters<typeof buildCharge>[0]) =>
    snapshotOf(buildCharge({ id: "ch_p", ...options }));

  it.each([
    { name: "allowed: nothing", charge: snap({}), evaluation: allowing, expected: null },
    {
      name: "captured: refund, keyed by the charge",
      charge: snap({}),
      evaluation: blocking,
      expected: {
        kind: "refund",
        targetId: "ch_p",
        idempotencyKey: "warden:ch_p:refund",
        rules: ["rule_high_risk"],
      },
    },
    {
      name: "uncaptured: cancel the PaymentIntent, keyed by it",
      charge: snap({ captured: false }),
      evaluation: blocking,
      expected: { kind: "cancel", idempotencyKey: expect.stringMatching(/^warden:pi_.*:cancel$/) },
    },
    {
      name: "already refunded: nothing",
      charge: snap({ refunded: true }),
      evaluation: blocking,
      expected: null,
    },
    {
      name: "not succeeded: nothing",
      charge: snap({ status: "pending", captured: false }),
      evaluation: blocking,
      expected: null,
    },
    {
      name: "a demo charge: simulated",
      charge: snap({ metadata: { warden_demo: "true" } }),
      evaluation: blocking,
      expected: { kind: "refund", simulated: true },
    },
    {
      name: "a live charge that says it is a demo: not simulated",
      charge: snap({ livemode: true, metadata: { warden_demo: "true" } }),
      evaluation: blocking,
      expected: { kind: "refund", simulated: false },
    },
  ])("$name", ({ charge, evaluation, expected }) => {
    const planned = planAction(charge, evaluation);
    if (expected === null) expect(planned).toBeNull();
    else expect(planned).toMatchObject(expected);
  });
});
