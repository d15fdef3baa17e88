/**
 * Everything counted, derived from the rules' own declarations (counting.ts): which
 * declarations a policy asks, and the empty counts. probes.ts builds a screening's probes
 * from them, and the backtest's look-backs come from them too.
 */
import type { CountDecl } from "./counting.ts";
import { RULES } from "./evaluate.ts";
import type { Counts, Policy } from "./types.ts";

/** Every declaration of every rule, once (rules may share one, e.g. the links). */
export function allCounts(): readonly CountDecl[] {
  return unique(RULES.flatMap((rule) => rule.counts ?? []));
}

/** The declarations the policy's live and monitored rules ask (a part turned off asks none). */
export function countsAsked(policy: Policy): readonly CountDecl[] {
  return unique(
    RULES.filter((rule) => policy.enabled[rule.key] && rule.appliesTo.includes("event"))
      .flatMap((rule) => rule.counts ?? [])
      .filter((decl) => decl.enabled?.(policy.settings) ?? true),
  );
}

function unique(decls: readonly CountDecl[]): CountDecl[] {
  const seen = new Set<string>();
  const out: CountDecl[] = [];
  for (const decl of decls) {
    if (seen.has(decl.group)) continue;
    seen.add(decl.group);
    out.push(decl);
  }
  return out;
}

/** Counts for a subject nothing was seen before: every declared number zero. */
export function emptyCounts(): Counts {
  const counts: Counts = {};
  for (const decl of allCounts()) {
    counts[decl.group] = Object.fromEntries(decl.kinds.map((kind) => [kind, 0]));
  }
  return counts;
}
