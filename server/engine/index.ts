/** The engine's public surface. */

export { emailDomain } from "./email-domain.ts";
export { decisionOf, evaluate, RULES } from "./evaluate.ts";
export { emptyCounts } from "./rule-counts.ts";
export type * from "./types.ts";
