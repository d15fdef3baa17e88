/**
 * The change feed's topic names, in one place: the module that publishes a change and the
 * modules that cache what it changed share the name here instead of importing each other.
 */
export const TOPICS = {
  /** An account's rules, lists or policy inputs changed: drop the cached policy. */
  policy: "policy",
  /** An account's settings changed (its Stripe webhook endpoint among them). */
  settings: "settings",
  /** An account's API keys changed: drop cached key lookups. */
  apiKeys: "api-keys",
  /** An account's decision webhook endpoints changed: drop its cached subscriptions. */
  webhooks: "webhooks",
  /** The console's live pages (modules/live): an account's screenings, charges or review. */
  liveScreenings: "live-screenings",
  liveCharges: "live-charges",
  liveReview: "live-review",
} as const;
