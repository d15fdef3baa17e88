/**
 * `npm run worlds`: detection quality on many worlds at once, judged by the worst (issue 42).
 * Plays each world with `npm run simulate` in a child process of its own (a fresh Warden on the
 * embedded database each), `--jobs` at a time, then prints per configuration the worst world's
 * ordinary events blocked and reviewed, ordinary people blocked at least once and lowest attack
 * recall, each with its world, beside the mean, and one table per named world. Writes the
 * worlds' JSON under --dir and the report as Markdown beside them.
 *
 *   --worlds default,second,random-101..120   (a..b: random-a to random-b)
 *   --seed 7000   each random world k plays seed 7000 + k; default and second play --named-seeds
 *   --named-seeds default=22,second=5151
 *   --events 2500 --hours 1 --template each   (as npm run simulate: each = every template alone,
 *                   then every rule; add `all` for every rule plus every template)
 *   --jobs 2   --dir bench/results/worlds
 *   --reuse   a world whose JSON is already in --dir is read, not played again (a run cut short
 *             goes on where it stopped; worlds played with other --template runs are summed up)
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { cleanup, ROOT } from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";
import { runMain } from "./lib/run-main.ts";
import type { ConfigurationFigures } from "./lib/sim/report.ts";
import {
  overCeilings,
  type WorldRun,
  worldTable,
  worstOf,
  worstTable,
} from "./lib/sim/worlds-summary.ts";

const args = flags();
const worlds = expand(args.worlds ?? "default,second,random-101..120");
const base = Number(args.seed ?? 7000);
const named = Object.fromEntries(
  (args["named-seeds"] ?? "default=22,second=5151").split(",").map((pair) => {
    const [name = "", seed = ""] = pair.split("=");
    return [name, Number(seed)];
  }),
);
const events = Number(args.events ?? 2500);
const hours = Number(args.hours ?? 1);
const template = args.template ?? "each,all";
const jobs = Math.max(1, Number(args.jobs ?? Math.min(2, availableParallelism())));
// Relative to the repository (where simulate runs), or absolute.
const dir = resolve(ROOT, args.dir ?? "bench/results/worlds");
const reuse = process.argv.includes("--reuse");

/** "default,random-3..5" → default, random-3, random-4, random-5. */
function expand(list: string): string[] {
  return list
    .split(",")
    .filter(Boolean)
    .flatMap((item) => {
      const range = /^random-(\d+)\.\.(\d+)$/.exec(item);
      if (!range) return [item];
      const [from, to] = [Number(range[1]), Number(range[2])];
      return Array.from({ length: to - from + 1 }, (_, i) => `random-${from + i}`);
    });
}

function seedOf(world: string): number {
  const k = /^random-(\d+)$/.exec(world);
  if (k) return base + Number(k[1]);
  const seed = named[world];
  if (seed === undefined) throw new Error(`--named-seeds: no seed for world ${world}`);
  return seed;
}

async function play(world: string): Promise<WorldRun> {
  const seed = seedOf(world);
  const out = join(dir, `${world}-${seed}.json`);
  if (reuse && existsSync(out)) return read(world, seed, out);
  const argv = [
    ...["--import", "tsx", "scripts/simulate.ts"],
    ...["--world", world, "--seed", String(seed), "--events", String(events)],
    ...["--hours", String(hours), "--template", template, "--out", out],
  ];
  await new Promise<void>((done, fail) => {
    execFile(process.execPath, argv, { cwd: ROOT, maxBuffer: 64 << 20 }, (error) =>
      error ? fail(new Error(`${world}: ${error.message}`)) : done(),
    );
  });
  return read(world, seed, out);
}

async function read(world: string, seed: number, out: string): Promise<WorldRun> {
  const report = JSON.parse(await readFile(out, "utf8")) as {
    figures: ConfigurationFigures[];
  };
  return { world, seed, figures: report.figures };
}

async function main() {
  await mkdir(dir, { recursive: true });
  const bar = progressBar(`${worlds.length} worlds`);
  const runs: WorldRun[] = new Array(worlds.length);
  let next = 0;
  let finished = 0;
  bar.update(0);
  await Promise.all(
    Array.from({ length: Math.min(jobs, worlds.length) }, async () => {
      while (next < worlds.length) {
        const i = next++;
        runs[i] = await play(worlds[i] as string);
        finished++;
        bar.update((100 * finished) / worlds.length, worlds[i]);
      }
    }),
  );
  bar.done(`played ${worlds.length} worlds`);
  const random = runs.filter((r) => r.world.startsWith("random-"));
  const sections = [
    `# Detection on ${worlds.length} worlds (${events} events, ${hours} h each; configurations: ${template})`,
    "",
    random.length > 0
      ? `## The worst of ${random.length} randomized worlds\n\n${worstTable(worstOf(random))}`
      : "",
    "",
    `Over the ceilings (≤ 0.5% blocked, ≤ 2% reviewed, ≤ 1% people blocked) in the worst world:\n\n${
      overCeilings(worstOf(random))
        .map((line) => `- ${line}`)
        .join("\n") || "- none"
    }`,
    "",
    ...runs.filter((r) => !r.world.startsWith("random-")).map((r) => `## ${worldTable(r)}\n`),
  ];
  const report = sections.join("\n");
  await writeFile(join(dir, "worlds.md"), `${report}\n`);
  console.log(report);
  console.error(`\nreport: ${join(dir, "worlds.md")}`);
}

runMain(main, { after: cleanup });
