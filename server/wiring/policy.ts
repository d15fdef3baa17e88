/**
 * Wiring: what a merchant sets (rules, templates, rule settings, block and allow lists, allowed
 * origins) and the policy loader that reads it all; every change is announced so each
 * instance reloads.
 */
import { DEFAULT_RULES, type Rules, rulesFromStored } from "../../shared/schemas/rules.ts";
import {
  DEFAULT_TEMPLATES,
  type Templates,
  templatesFromStored,
} from "../../shared/schemas/templates.ts";
import { createAllowListRepository } from "../modules/allowlist/allowlist.repository.ts";
import { createAllowListService } from "../modules/allowlist/allowlist.service.ts";
import { createBlocklistRepository } from "../modules/blocklist/blocklist.repository.ts";
import { createBlocklistService } from "../modules/blocklist/blocklist.service.ts";
import { createOriginsRepository } from "../modules/collector/origins.repository.ts";
import { createOriginsService } from "../modules/collector/origins.service.ts";
import { createJsonSettingsRepository } from "../modules/json-settings/json-settings.repository.ts";
import { createJsonSettingsService } from "../modules/json-settings/json-settings.service.ts";
import { createPolicyService, policyChangeNotifier } from "../modules/policy/policy.service.ts";
import { createRuleSettingsService } from "../modules/rule-settings/rule-settings.service.ts";
import { createScoringRepository } from "../modules/scoring/scoring.repository.ts";
import type { ServiceDeps } from "./deps.ts";

export function wirePolicy({
  prisma,
  changes,
  now,
}: Pick<ServiceDeps, "prisma" | "changes" | "now">) {
  const onChange = policyChangeNotifier(changes);
  const rules = createJsonSettingsService<Rules>({
    repo: createJsonSettingsRepository(prisma, "rules"),
    defaults: DEFAULT_RULES,
    fromStored: rulesFromStored,
    onChange,
  });
  const templates = createJsonSettingsService<Templates>({
    repo: createJsonSettingsRepository(prisma, "templates"),
    defaults: DEFAULT_TEMPLATES,
    fromStored: templatesFromStored,
    onChange,
  });
  const blocklist = createBlocklistService({
    repo: createBlocklistRepository(prisma),
    onChange,
  });
  const ruleSettings = createRuleSettingsService({
    repo: createJsonSettingsRepository(prisma, "ruleParameters"),
    rules,
    templates,
    onChange,
  });
  const allowList = createAllowListService({
    repo: createAllowListRepository(prisma),
    now,
    onChange,
  });
  const origins = createOriginsService({ repo: createOriginsRepository(prisma), onChange });
  const scoringRepo = createScoringRepository(prisma);
  const scoring = {
    async inForce(accountId: string) {
      const [weights, thresholds] = await Promise.all([
        scoringRepo.adoptedWeights(accountId),
        scoringRepo.thresholds(accountId),
      ]);
      return { weights, thresholds };
    },
  };
  // What the policy loader reads is also what the wiring hands out, named once for both.
  const settings = { rules, templates, blocklist, ruleSettings, allowList, origins };
  const policy = createPolicyService({ ...settings, scoring, changes, now });
  return { ...settings, policy, scoringRepo, onChange };
}

export type PolicyServices = ReturnType<typeof wirePolicy>;
