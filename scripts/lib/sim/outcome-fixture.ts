/** A screened signup for the report's and the baseline's tests: `rules` are its reasons. */
import type { Outcome } from "./driver.ts";

export const outcomeOf = (
  population: string,
  attack: boolean,
  actor: string,
  decision: Outcome["decision"],
  rules: [string, "block" | "review"][] = [],
): Outcome => ({
  at: 0,
  population,
  attack,
  payoff: true,
  actor,
  type: "signup",
  id: `s-${actor}`,
  score: 0,
  signals: {},
  decision,
  reasons: rules.map(([rule, action]) => ({
    rule: rule as Outcome["reasons"][number]["rule"],
    action,
    message: "",
  })),
});
