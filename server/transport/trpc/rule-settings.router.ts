import { z } from "zod";
import { ZRuleSettings, ZRuleSettingsUpdate } from "../../../shared/schemas/rule-settings.ts";
import { RULE_KEYS } from "../../../shared/schemas/rules.ts";
import { TEMPLATE_KEYS } from "../../../shared/schemas/templates.ts";
import { protectedProcedure, router } from "./init.ts";

const perRule = <T extends z.ZodType>(schema: T) =>
  z.object(Object.fromEntries(RULE_KEYS.map((key) => [key, schema])) as Record<string, T>);

export const ruleSettingsRouter = router({
  /** Each rule's action, mode and parameters, as the merchant set them over the defaults. */
  get: protectedProcedure
    .output(ZRuleSettings)
    .query(({ ctx }) => ctx.services.ruleSettings.get(ctx.user.accountId)),

  /** Any subset of rules and fields; the rest is kept. */
  put: protectedProcedure
    .input(ZRuleSettingsUpdate)
    .output(ZRuleSettings)
    .mutation(({ ctx, input }) => ctx.services.ruleSettings.put(ctx.user.accountId, input)),

  /** What runs for screened events: rules on (own flag or template), settings, and drivers. */
  effective: protectedProcedure
    .output(
      z.object({
        enabled: perRule(z.boolean()),
        settings: ZRuleSettings,
        drivenBy: perRule(z.array(z.enum(TEMPLATE_KEYS))),
      }),
    )
    .query(({ ctx }) => ctx.services.ruleSettings.effective(ctx.user.accountId)),
});
