/**
 * Only counting rows some probe can count are stored (countable, decision 018). Checked
 * against probesFor itself: every probe any rule asks, for every event type, with and without
 * a card, must find the rows it counts stored.
 */
import { describe, expect, it } from "vitest";
import { effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import { DEFAULT_BLOCKLIST } from "../../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES, RULE_KEYS } from "../../../shared/schemas/rules.ts";
import { SCREEN_TYPES } from "../../../shared/schemas/screening.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import type { EventSubject, Policy } from "../../engine/types.ts";
import { IDENTITY_KINDS, type Identities } from "./features/identities.ts";
import { countable, probesFor } from "./probes.ts";

const ids: Identities = {
  values: Object.fromEntries(IDENTITY_KINDS.map((kind) => [kind, `${kind}-1`])),
  legacy: {},
  subject: "user-1",
};

/** Every rule on, with the settings that make each ask all it can. */
function everyRule(): Policy {
  const rules = {
    ...DEFAULT_RULES,
    ...Object.fromEntries(RULE_KEYS.filter((key) => key.startsWith("rule_")).map((k) => [k, true])),
  };
  const { enabled, settings } = effectiveRules(rules, DEFAULT_TEMPLATES, {});
  return {
    rules,
    templates: DEFAULT_TEMPLATES,
    blocklist: DEFAULT_BLOCKLIST,
    enabled,
    settings: {
      ...settings,
      rule_farming: { ...settings.rule_farming, accounts: true },
      rule_email: { ...settings.rule_email, disposable_signups_per_hour: 3 },
    },
  } as Policy;
}

describe("countable", () => {
  const policy = everyRule();
  const asked = SCREEN_TYPES.flatMap((type) =>
    probesFor(
      {
        kind: "event",
        type,
        referrerUserId: "referrer-1",
        cardFingerprint: "card-1",
        promoCode: "promo-1",
      } as EventSubject,
      ids,
      policy,
      new Date(),
      "k",
    ),
  );

  it("is asked about every kind the probes count", () => {
    // Else the check below would pass for a kind no probe was generated for.
    expect(new Set(asked.map((probe) => probe.kind))).toEqual(new Set(IDENTITY_KINDS));
  });

  it.each(SCREEN_TYPES)("keeps every %s row a probe counts", (rowType) => {
    for (const probe of asked) {
      if (probe.types && !probe.types.includes(rowType)) continue;
      // A distinct count of cards counts only rows that have one.
      for (const card of probe.measure === "distinctCard" ? [true] : [true, false]) {
        expect(countable(probe.kind, rowType, card), `${probe.name} over a ${rowType} row`).toBe(
          true,
        );
      }
    }
  });

  it("leaves out rows no probe counts", () => {
    expect(countable("subnet", "request", false)).toBe(false);
    expect(countable("disposable", "login", false)).toBe(false);
    expect(countable("promo", "checkout", true)).toBe(false);
    expect(countable("user", "request", false)).toBe(false);
    expect(countable("user", "checkout", true)).toBe(true);
    expect(countable("subnet", "signup", false)).toBe(true);
  });
});
