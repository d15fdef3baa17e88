/**
 * What other modules that post to a merchant's URL use of webhooks (alerts' Slack messages):
 * the check of an address before it is saved and the guarded sender's type.
 */
export { endpointProblem } from "./ssrf.ts";
export type { WebhookSender } from "./webhook-sender.ts";
