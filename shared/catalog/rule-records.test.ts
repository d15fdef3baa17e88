import { describe, expect, it } from "vitest";
import { DEFAULT_RULE_SETTINGS, RULE_SETTING_SHAPES } from "../schemas/rule-settings.ts";
import { RULE_KEYS } from "../schemas/rules.ts";
import { RULE_DISPLAY_ORDER, RULE_RECORDS } from "./rule-records.ts";
import { RULE_CATALOG, SETTING_LABELS } from "./rules.ts";

describe("the rule records", () => {
  it("show every rule once on the Rules page, standard rules first", () => {
    expect([...RULE_DISPLAY_ORDER].sort()).toEqual([...RULE_KEYS].sort());
    const groups = RULE_CATALOG.map((r) => r.group);
    expect(groups).toEqual([...groups].sort((a, b) => (a === b ? 0 : a === "standard" ? -1 : 1)));
  });

  it("give a setting shared by several rules one label (SETTING_LABELS keeps one per name)", () => {
    for (const record of Object.values(RULE_RECORDS)) {
      for (const [name, f] of Object.entries(record.fields)) {
        expect(SETTING_LABELS[name], name).toBe(f.label);
      }
    }
  });

  it.each(RULE_KEYS)("%s: its defaults pass its own settings schema", (key) => {
    expect(RULE_SETTING_SHAPES[key].safeParse(DEFAULT_RULE_SETTINGS[key]).success).toBe(true);
  });

  it.each(RULE_KEYS)(
    "%s: each window names a whole-number setting of the rule, or fixed days",
    (key) => {
      for (const w of Object.values(RULE_RECORDS[key].windows)) {
        const days =
          typeof w.days === "number"
            ? w.days
            : (DEFAULT_RULE_SETTINGS[key] as Record<string, unknown>)[w.days];
        expect(Number.isInteger(days), `${key} ${String(w.days)}`).toBe(true);
        expect(w.loses).toContain("{N}");
      }
    },
  );
});
