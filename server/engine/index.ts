/** The engine's public surface. */

export { emptyCounts } from "./counts.ts";
export { emailDomain } from "./email-domain.ts";
export { decisionOf, evaluate, RULES } from "./evaluate.ts";
export type * from "./types.ts";
