/** Rules settings use cases: read merged over defaults, replace the whole object. */
import { DEFAULT_RULES, type Rules, rulesFromStored } from "../../../shared/schemas/rules.ts";
import type { RulesRepository } from "./rules.repository.ts";

export function createRulesService(repo: RulesRepository) {
  return {
    async get(accountId: string): Promise<Rules> {
      return rulesFromStored(await repo.findOrCreate(accountId, DEFAULT_RULES));
    },

    async put(accountId: string, rules: Rules): Promise<Rules> {
      await repo.save(accountId, rules);
      return rulesFromStored(rules);
    },
  };
}

export type RulesService = ReturnType<typeof createRulesService>;
