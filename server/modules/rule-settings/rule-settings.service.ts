/**
 * Each rule's action, mode and parameters. Only what the merchant changed is stored, so a
 * template's values (and later defaults) still apply to the rest; reads merge it over the
 * defaults. A PUT may name any subset of rules and fields; the rest is kept.
 */
import { type EffectiveRules, effectiveRules } from "../../../shared/catalog/effective-rules.ts";
import {
  mergeRuleSettings,
  type RuleSettings,
  type RuleSettingsUpdate,
  storedRuleOverrides,
} from "../../../shared/schemas/rule-settings.ts";
import type { Rules } from "../../../shared/schemas/rules.ts";
import type { Templates } from "../../../shared/schemas/templates.ts";
import type { Prisma } from "../../db/generated/client.ts";
import type { JsonSettingsRepository } from "../json-settings/json-settings.repository.ts";

type Deps = {
  repo: JsonSettingsRepository;
  rules: { get(accountId: string): Promise<Rules> };
  templates: { get(accountId: string): Promise<Templates> };
  onChange(accountId: string): void;
};

export function createRuleSettingsService({ repo, rules, templates, onChange }: Deps) {
  async function overrides(accountId: string): Promise<RuleSettingsUpdate> {
    return storedRuleOverrides(await repo.findOrCreate(accountId, {}));
  }

  return {
    overrides,

    /** The merchant's settings over the defaults (templates not applied). */
    async get(accountId: string): Promise<RuleSettings> {
      return mergeRuleSettings(await overrides(accountId));
    },

    async put(accountId: string, update: RuleSettingsUpdate): Promise<RuleSettings> {
      const current = await overrides(accountId);
      const next: Record<string, object> = { ...current };
      for (const [key, fields] of Object.entries(update)) {
        if (fields) next[key] = { ...(next[key] ?? {}), ...fields };
      }
      await repo.save(accountId, next as Prisma.InputJsonObject);
      onChange(accountId);
      return mergeRuleSettings(next as RuleSettingsUpdate);
    },

    /** What runs for screened events: flags and templates combined, and who drives what. */
    async effective(accountId: string): Promise<EffectiveRules> {
      const [r, t, own] = await Promise.all([
        rules.get(accountId),
        templates.get(accountId),
        overrides(accountId),
      ]);
      return effectiveRules(r, t, own);
    },
  };
}

export type RuleSettingsService = ReturnType<typeof createRuleSettingsService>;
