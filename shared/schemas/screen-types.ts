/**
 * The kinds of event a merchant screens. Apart from screening.ts so the rule records
 * (shared/catalog/rule-records.ts), which judge some of them, do not import the screening
 * schema that names the rules.
 */
export const SCREEN_TYPES = [
  "signup",
  "login",
  "trial_start",
  "promo_redemption",
  "referral",
  "checkout",
  "request",
] as const;
export type ScreenType = (typeof SCREEN_TYPES)[number];
