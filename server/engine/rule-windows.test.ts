import { describe, expect, it } from "vitest";
import { RULE_RECORDS } from "../../shared/catalog/rule-records.ts";
import { ruleWindows } from "../../shared/privacy/retention.ts";
import {
  DEFAULT_RULE_SETTINGS,
  mergeRuleSettings,
  type RuleSettings,
  type RuleSettingsUpdate,
} from "../../shared/schemas/rule-settings.ts";
import { RULE_KEYS } from "../../shared/schemas/rules.ts";
import type { CountDecl } from "./counting.ts";
import { DAY } from "./counting.ts";
import { RULES } from "./evaluate.ts";

/**
 * Count windows of a day or more that retention does not list, each with its reason. Listing
 * rule_email's would add a line to the retention page's warnings (issue 43 left them as they were).
 */
const UNLISTED: Record<string, string> = {
  domainSignups30Days:
    "rule_email's new-domain check looks back 30 days; retention's warnings do not name it yet",
};

/** Every window the records let the merchant set, each at its own odd number of days. */
function oddSettings(): RuleSettings {
  const update: Record<string, Record<string, number>> = {};
  let days = 101;
  for (const key of RULE_KEYS) {
    for (const w of Object.values(RULE_RECORDS[key].windows)) {
      if (typeof w.days !== "string") continue;
      update[key] = { ...update[key], [w.days]: days++ };
    }
  }
  return mergeRuleSettings(update as RuleSettingsUpdate);
}

const owners = (decl: CountDecl) =>
  RULES.filter((rule) => rule.counts?.includes(decl)).map((rule) => rule.key);

const counted = RULES.flatMap((rule) => rule.counts ?? []).filter(
  (decl, i, all) => all.indexOf(decl) === i,
);

describe.each([
  ["the default settings", DEFAULT_RULE_SETTINGS],
  ["every window set to its own number of days", oddSettings()],
])("under %s", (_name, settings) => {
  const retained = ruleWindows(settings).filter((w) => w.kind === "identities");

  it.each(counted.map((decl) => [decl.group, decl] as const))(
    "%s counts over a window retention names for a rule that asks it",
    (group, decl) => {
      const days = decl.window(settings) / DAY;
      if (days < 1 || group in UNLISTED) return;
      const mine = retained.filter((w) => owners(decl).includes(w.rule as never));
      expect(
        mine.map((w) => w.days),
        `${group}: ${days} days, asked by ${owners(decl).join(", ")}`,
      ).toContain(days);
    },
  );

  it.each(retained.map((w) => [w.rule, w.days, w] as const))(
    "retention's %s window of %d days is one its rule counts over",
    (rule, days) => {
      const own = RULES.find((r) => r.key === rule)?.counts ?? [];
      expect(own.map((decl) => decl.window(settings) / DAY)).toContain(days);
    },
  );
});
