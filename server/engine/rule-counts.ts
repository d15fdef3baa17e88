/**
 * Everything counted, derived from the rules' own declarations (counting.ts): which
 * declarations a policy asks, and the empty counts. probes.ts builds a screening's probes
 * from them, and the backtest's look-backs come from them too.
 */
import type { CountDecl } from "./counting.ts";
import { RULES } from "./evaluate.ts";
import type { Counts, Policy } from "./types.ts";

let all: readonly CountDecl[] | null = null;

/** Every declaration of every rule, once (rules may share one, e.g. the links). */
export function allCounts(): readonly CountDecl[] {
  all ??= unique(RULES.flatMap((rule) => rule.counts ?? []));
  return all;
}

const asked = new WeakMap<Policy, readonly CountDecl[]>();

/**
 * The declarations the policy's live and monitored rules ask (a part turned off asks none),
 * worked out once per policy object (the policy cache hands the same one to every screening).
 */
export function countsAsked(policy: Policy): readonly CountDecl[] {
  let decls = asked.get(policy);
  if (!decls) {
    decls = askedBy(policy);
    asked.set(policy, decls);
  }
  return decls;
}

function askedBy(policy: Policy): readonly CountDecl[] {
  // The risk score reads every signal, whichever rules are on (signals.ts).
  if (policy.score) return allCounts();
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
    const group: Record<string, number> = {};
    for (const kind of decl.kinds) group[kind] = 0;
    counts[decl.group] = group;
  }
  return counts;
}
