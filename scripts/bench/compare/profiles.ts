/**
 * bench:compare --profile: each Warden server runs with `--cpu-prof` into its own directory
 * (<tree>-<db>-<half>-r<round>), which V8 writes when the process exits (Warden exits
 * normally on SIGTERM, server/main.ts); after the turn its profile is read and split into
 * phases (phases.ts), each phase's CPU time over the 2xx answers that server gave.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DatabaseKind } from "../warden.ts";
import { type CpuProfile, type Half, msPerAnswer, PHASE_ORDER, phasesOf } from "./phases.ts";
import { median } from "./report.ts";
import type { TreeName } from "./trees.ts";

/** What one server's profile says. */
export type PhaseRun = {
  file: string;
  /** The 2xx answers it gave over its life (fill and loads; the merchant's setup not counted). */
  answers: number;
  /** Phase → CPU ms in the whole profile (idle included, as its own row). */
  ms: Record<string, number>;
  /** Phase → CPU ms per answer (idle left out). */
  msPerAnswer: Record<string, number>;
};

/** Where one server's profile goes. */
export const profileDir = (
  profilesDir: string,
  tree: TreeName,
  database: DatabaseKind,
  half: Half,
  round: number,
) => join(profilesDir, `${tree}-${database}-${half}-r${round}`);

/** The Node flags that make a server write its profile into `dir`. */
export const profileArgs = (dir: string) => ["--cpu-prof", `--cpu-prof-dir=${dir}`];

/** The profile the server left in `dir`, split into phases; null (and a warning) if none. */
export async function readPhases(
  dir: string,
  half: Half,
  answers: number,
): Promise<PhaseRun | null> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) =>
    f.endsWith(".cpuprofile"),
  );
  const name = files.sort().at(-1);
  if (!name) {
    console.error(`bench:compare --profile: no .cpuprofile in ${dir}`);
    return null;
  }
  const file = join(dir, name);
  let profile: CpuProfile;
  try {
    profile = JSON.parse(await readFile(file, "utf8")) as CpuProfile;
  } catch (error) {
    // A server killed mid-write (stop() sends SIGKILL after 10 s) leaves a cut file.
    console.error(`bench:compare --profile: ${file} unreadable: ${(error as Error).message}`);
    return null;
  }
  const spent = phasesOf(profile, half);
  const ms = Object.fromEntries([...spent].map(([phase, us]) => [phase, us / 1000]));
  return { file, answers, ms, msPerAnswer: msPerAnswer(spent, answers) };
}

/** Each phase's median over the rounds of its ms per answer; null when no round was profiled. */
export function medianPhases(runs: (PhaseRun | null | undefined)[]): Record<string, number> | null {
  const known = runs.filter((run): run is PhaseRun => !!run);
  if (known.length === 0) return null;
  const out: Record<string, number> = {};
  for (const phase of PHASE_ORDER) {
    const values = known.flatMap((run) => {
      const value = run.msPerAnswer[phase];
      return value === undefined ? [] : [value];
    });
    // A phase a round did not see counts as 0 there, so the median is over every round.
    if (values.length > 0)
      out[phase] = median([...values, ...Array(known.length - values.length).fill(0)]);
  }
  return out;
}
