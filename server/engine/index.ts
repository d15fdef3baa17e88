/** The engine's public surface. */
export { emailDomain } from "./email-domain.ts";
export { decisionOf, evaluate, RULES } from "./evaluate.ts";
export type * from "./types.ts";
