/**
 * Many worlds, one verdict (pure): per configuration, the worst world's false positives (its
 * highest share of ordinary events blocked and reviewed, of ordinary people blocked at least
 * once) and its lowest recall, each with the world it came from, beside the mean. A fitted
 * weight is an assumption of the simulator: judged on one world's mean it hides the world where
 * the assumption breaks (issue 42), so the goals and CI's guard read the worst.
 */
import type { ConfigurationFigures } from "./report.ts";
import { pct } from "./report.ts";

/** One world played: its name, seed and each configuration's figures. */
export type WorldRun = { world: string; seed: number; figures: readonly ConfigurationFigures[] };

/** A figure's extreme over the worlds and the world it was seen in. */
export type Extreme = { value: number; world: string };

export type WorstRow = {
  configuration: string;
  worlds: number;
  blocked: Extreme;
  reviewed: Extreme;
  peopleBlocked: Extreme;
  recall: Extreme;
  mean: { blocked: number; reviewed: number; peopleBlocked: number; recall: number };
};

/** The goals of issue 42 on ordinary traffic, in the worst world. */
export type Ceilings = { blocked: number; reviewed: number; peopleBlocked: number };
export const CEILINGS: Ceilings = { blocked: 0.005, reviewed: 0.02, peopleBlocked: 0.01 };

/** Per configuration (in the first run's order), the worst world's figures and the mean. */
export function worstOf(runs: readonly WorldRun[]): WorstRow[] {
  const names = runs[0]?.figures.map((f) => f.name) ?? [];
  return names.map((configuration) => {
    const seen = runs.flatMap((run) => {
      const f = run.figures.find((x) => x.name === configuration);
      return f ? [{ world: run.world, f }] : [];
    });
    const most = (read: (f: ConfigurationFigures) => number, lowest = false): Extreme => {
      let best: Extreme = { value: lowest ? Infinity : -Infinity, world: "" };
      for (const { world, f } of seen) {
        const value = read(f);
        if (lowest ? value < best.value : value > best.value) best = { value, world };
      }
      return best;
    };
    const mean = (read: (f: ConfigurationFigures) => number) =>
      seen.reduce((sum, { f }) => sum + read(f), 0) / Math.max(1, seen.length);
    const blocked = (f: ConfigurationFigures) => f.ordinary.blockedRate;
    const reviewed = (f: ConfigurationFigures) => f.ordinary.reviewedRate;
    const people = (f: ConfigurationFigures) => f.ordinary.peopleBlockedRate;
    const recall = (f: ConfigurationFigures) => f.attacks.recall;
    return {
      configuration,
      worlds: seen.length,
      blocked: most(blocked),
      reviewed: most(reviewed),
      peopleBlocked: most(people),
      recall: most(recall, true),
      mean: {
        blocked: mean(blocked),
        reviewed: mean(reviewed),
        peopleBlocked: mean(people),
        recall: mean(recall),
      },
    };
  });
}

/** Each worst-world false-positive figure over its ceiling, in words (empty: none). */
export function overCeilings(rows: readonly WorstRow[], ceilings: Ceilings = CEILINGS): string[] {
  const over: string[] = [];
  for (const row of rows) {
    const check = (what: string, x: Extreme, ceiling: number) => {
      if (x.value > ceiling)
        over.push(
          `${row.configuration}: ordinary ${what} ${pct(x.value)} in ${x.world} (ceiling ${pct(ceiling)})`,
        );
    };
    check("blocked", row.blocked, ceilings.blocked);
    check("reviewed", row.reviewed, ceilings.reviewed);
    check("people blocked", row.peopleBlocked, ceilings.peopleBlocked);
  }
  return over;
}

/** The worst-world table, one row per configuration. */
export function worstTable(rows: readonly WorstRow[]): string {
  const at = (x: Extreme) => `${pct(x.value)} (${x.world})`;
  return [
    "| configuration | worlds | ordinary blocked: worst (world) | mean | ordinary reviewed: worst | mean | people blocked ≥ once: worst | mean | attacks blocked or reviewed: lowest | mean |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.configuration} | ${r.worlds} | ${at(r.blocked)} | ${pct(r.mean.blocked)} | ${at(r.reviewed)} | ${pct(r.mean.reviewed)} | ${at(r.peopleBlocked)} | ${pct(r.mean.peopleBlocked)} | ${at(r.recall)} | ${pct(r.mean.recall)} |`,
    ),
  ].join("\n");
}

/** One world's figures per configuration, as the table reads them. */
export function worldTable(run: WorldRun): string {
  return [
    `World ${run.world}, seed ${run.seed}:`,
    "",
    "| configuration | ordinary events blocked | reviewed | ordinary people blocked ≥ once | attacks blocked or reviewed |",
    "|---|---:|---:|---:|---:|",
    ...run.figures.map(
      (f) =>
        `| ${f.name} | ${pct(f.ordinary.blockedRate)} | ${pct(f.ordinary.reviewedRate)} | ${f.ordinary.peopleBlocked}/${f.ordinary.people} (${pct(f.ordinary.peopleBlockedRate)}) | ${pct(f.attacks.recall)} |`,
    ),
  ].join("\n");
}
