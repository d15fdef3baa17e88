/** The settings a backtest of the module's own tests runs with: the defaults, signup velocity on. */
import { DEFAULT_BLOCKLIST } from "../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES } from "../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../shared/schemas/templates.ts";

export const BACKTEST_SETTINGS = {
  rules: { ...DEFAULT_RULES, rule_signup_velocity: true },
  templates: DEFAULT_TEMPLATES,
  rule_settings: {},
  blocklist: DEFAULT_BLOCKLIST,
  days: 30,
  unsaved: [] as string[],
};
