import { accountRouter } from "./account.router.ts";
import { allowListRouter } from "./allow-list.router.ts";
import { allowedOriginsRouter } from "./allowed-origins.router.ts";
import { apiKeysRouter } from "./api-keys.router.ts";
import { auditRouter } from "./audit.router.ts";
import { authRouter } from "./auth.router.ts";
import { backtestRouter } from "./backtest.router.ts";
import { blocklistRouter } from "./blocklist.router.ts";
import { dashboardRouter } from "./dashboard.router.ts";
import { endUsersRouter } from "./end-users.router.ts";
import { createCallerFactory, router } from "./init.ts";
import { labelsApiRouter, labelsRouter } from "./labels.router.ts";
import { retentionRouter } from "./retention.router.ts";
import { reviewRouter, screeningsApiRouter } from "./review.router.ts";
import { ruleSettingsRouter } from "./rule-settings.router.ts";
import { rulesRouter } from "./rules.router.ts";
import { scoreModelsRouter } from "./score-models.router.ts";
import { scoreThresholdsRouter } from "./score-thresholds.router.ts";
import { screeningRouter, screeningsRouter } from "./screening.router.ts";
import { settingsRouter } from "./settings.router.ts";
import { stripeRouter } from "./stripe.router.ts";
import { securityRouter, teamRouter } from "./team.router.ts";
import { templatesRouter } from "./templates.router.ts";
import { twoFactorRouter } from "./two-factor.router.ts";
import { waitlistRouter } from "./waitlist.router.ts";
import { webhooksRouter } from "./webhooks.router.ts";

export const appRouter = router({
  auth: authRouter,
  waitlist: waitlistRouter,
  dashboard: dashboardRouter,
  rules: rulesRouter,
  templates: templatesRouter,
  blocklist: blocklistRouter,
  settings: settingsRouter,
  stripe: stripeRouter,
  apiKeys: apiKeysRouter,
  ruleSettings: ruleSettingsRouter,
  screening: screeningRouter,
  screenings: screeningsRouter,
  backtest: backtestRouter,
  labels: labelsRouter,
  labelsApi: labelsApiRouter,
  review: reviewRouter,
  screeningsApi: screeningsApiRouter,
  allowList: allowListRouter,
  allowedOrigins: allowedOriginsRouter,
  webhooks: webhooksRouter,
  scoreModels: scoreModelsRouter,
  scoreThresholds: scoreThresholdsRouter,
  team: teamRouter,
  security: securityRouter,
  retention: retentionRouter,
  endUsers: endUsersRouter,
  audit: auditRouter,
  twoFactor: twoFactorRouter,
  account: accountRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
