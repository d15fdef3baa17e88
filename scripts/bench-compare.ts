/**
 * `npm run bench:compare -- --base <rev>`: is the head faster or slower than the base, and by
 * how much beyond the noise? The base commit is checked out in a git worktree (kept under
 * os.tmpdir()/warden-bench-trees/<sha> for the next run), its dist/ built as `npm start` builds
 * it; the head is this working tree as it is, uncommitted changes included, or `--head <rev>`
 * in a worktree too (scripts/bench/compare/trees.ts). Both servers run compiled from their own
 * tree, as separate processes (bench-process.ts), loaded from this one over real HTTP.
 *
 * --rounds rounds (default 3), each: the bare Fastify route once (scripts/bench/bare-server.ts),
 * then on each database (--db postgres|embedded, default both) the two trees alternately, the
 * base first in odd rounds, the head first in even ones (compare/rounds.ts). A tree's turn:
 * - a screening server on a fresh data dir or database: its RSS once it answers, the issue's
 *   "six templates" merchant (all six templates and rule_email on, an API key, the shop's
 *   origin allowed), --fill screenings (default 10,000), then a closed loop of --connections
 *   (32) for --duration seconds (8) and a paced load of --rate (1,000) a second for as long;
 *   the server's CPU time in the closed loop a 2xx answer (compare/screen.ts);
 * - a fresh webhooks server: --events signed events (10,000) after --warmup (1,000), as
 *   bench:webhooks sends them, from --webhook-connections (16); events a second, the server's CPU a
 *   event, and every event stored and applied, read from its database afterwards.
 * --only screen|webhooks runs one half.
 *
 * --profile: where the time went. Every Warden server (screening and webhooks, base and head,
 * each database) runs with `--cpu-prof` into bench/results/<stamp>-profiles/
 * <tree>-<db>-<half>-r<round>/ (V8 writes the file as the server exits on SIGTERM). Each
 * profile is split into phases, each sample to the innermost phase on its stack
 * (compare/phases.ts: parse and validate, policy, features, identities, counts, links,
 * signals and score, the rows to write, the statement that stores one batch and counts the
 * next, events, live notifications, HTTP, JSON, Prisma, GC, ...; the embedded database's
 * WebAssembly runs on the server's thread and goes to the statement that ran it). After the
 * tables, per database and half: each phase's CPU ms per 2xx answer the server gave over its
 * life (fill and loads; per webhook event for the webhooks), base and head (medians over the
 * rounds) and head − base; in the results file too (`phaseTables`, and each turn's `phases`).
 * Profiling slows the servers: read the phases against each other, not the throughputs.
 *
 * Prints, per database, a Markdown table: each figure's median over the rounds for base and
 * head with its range, the median of the per-round ratios head/base with theirs, and for
 * throughputs each as a share of that round's bare route (compare/report.ts); the machine
 * line, both commits and the load average at the start and the end. Writes everything to
 * bench/results/compare-<stamp>.json. A webhook event lost or not applied fails the run
 * (exit 1) after the table. Every child process is stopped and every PostgreSQL database
 * dropped at the end, on error and on Ctrl-C.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { options } from "./bench/compare/options.ts";
import { PHASE, phaseTable } from "./bench/compare/phases.ts";
import { medianPhases } from "./bench/compare/profiles.ts";
import { compareTable, summarize } from "./bench/compare/report.ts";
import { runRounds, type Turn, turnProblems } from "./bench/compare/rounds.ts";
import { prepareTrees } from "./bench/compare/trees.ts";
import { loadAverage, machineLine, machine as thisMachine } from "./bench/machine.ts";
import { runBench } from "./bench/main.ts";
import { databaseLabel } from "./bench/warden.ts";
import { cleanups, ROOT } from "./lib/bench-process.ts";
import { startStripeStandIn } from "./lib/stripe-stand-in.ts";

/** Per database and half, each phase's CPU ms per answer: base and head, medians over the rounds. */
function phaseTablesOf(turns: Turn[]) {
  return options.databases.flatMap((database) =>
    (["screen", "webhooks"] as const)
      .filter((half) => options.run[half])
      .map((half) => {
        const of = (tree: "base" | "head") =>
          medianPhases(
            turns
              .filter((turn) => turn.database === database && turn.tree === tree)
              .map((turn) => turn.phases?.[half]),
          );
        return { database, half, base: of("base"), head: of("head") };
      }),
  );
}

/** What the tables measured, printed under them. */
function notes(): string {
  const { rounds, connections, seconds, rate, fill, events, warmup, webhookConnections } = options;
  return (
    `${rounds} round${rounds === 1 ? "" : "s"}, base and head alternately (base first in odd rounds), each beside the bare route measured in the same round. ` +
    `Screening: the "six templates" merchant, ${fill} screenings filled, then a closed loop of ${connections} connections for ${seconds} s ` +
    `and a paced load of ${rate}/s for ${seconds} s (served/s: 2xx answers a second; below ${rate}, the server fell behind). ` +
    `Webhooks: ${events} signed events after ${warmup} warm-up, ${webhookConnections} connections, closed loop. ` +
    "CPU: the server process's (user + system) over its 2xx answers. head/base: the median of the rounds' ratios (min–max)."
  );
}

async function main() {
  const started = new Date();
  const stamp = started.toISOString().slice(0, 16).replace(":", "");
  console.error(
    `bench:compare: base ${options.base}, head ${options.head ?? "the working tree"}; ` +
      `${options.rounds} rounds on ${options.databases.join(" and ")}`,
  );
  const trees = await prepareTrees(options.base, options.head);
  const resultsDir = join(ROOT, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-compare-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const stripe = options.run.webhooks ? await startStripeStandIn() : null;
  if (stripe) cleanups.push(() => stripe.close());

  const machine = thisMachine();
  console.error(`${machineLine(machine)}`);
  const profilesDir = options.profile ? join(resultsDir, `${stamp}-profiles`) : null;
  if (profilesDir) await mkdir(profilesDir, { recursive: true });
  const { rounds, turns } = await runRounds(trees, workDir, stripe?.url ?? "", profilesDir);
  const loadavgAtEnd = loadAverage();

  const tables = options.databases.map((database) => {
    const label = databaseLabel(database);
    return { database, rows: summarize(rounds, database), label };
  });
  const phaseTables = profilesDir ? phaseTablesOf(turns) : null;
  const file = join(resultsDir, `compare-${stamp}.json`);
  const results = {
    date: started.toISOString(),
    base: trees.base,
    head: trees.head,
    machine: { ...machine, loadavgAtEnd },
    options,
    rounds,
    tables,
    ...(phaseTables && { profiles: profilesDir, phaseTables }),
    turns,
  };
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);

  const commits = `base ${trees.base.sha} (${trees.base.rev}), head ${trees.head.sha}${trees.head.label.endsWith("+dirty") ? " with uncommitted changes" : ""} (${trees.head.rev})`;
  console.log(`\n${commits}\n${machineLine(machine)}; at the end ${loadavgAtEnd.join(" ")}\n`);
  for (const { label, rows } of tables) console.log(`${compareTable(label, rows)}\n`);
  for (const { database, half, base, head } of phaseTables ?? []) {
    const title = `${databaseLabel(database)}, ${half === "screen" ? "screening" : "webhooks"}: CPU by phase`;
    console.log(
      `${phaseTable(title, half === "screen" ? "a screening" : "an event", base, head)}\n`,
    );
  }
  if (phaseTables)
    console.log(
      `Phases: each server's CPU profile (${profilesDir}), each sample to the innermost phase on its stack ` +
        `(scripts/bench/compare/phases.ts), over the 2xx answers it gave (fill and loads; warm-up and events), ` +
        `the median over the rounds. "${PHASE.statement}": the one statement that stores a batch and counts the next ` +
        "(its JSON parameters; embedded: the database's own work, indexes included). On PostgreSQL the database's " +
        "work is in its own process, not here. Profiling slows the servers.\n",
    );
  console.log(`${notes()}\nResults: ${file}`);

  const screenErrors = turns.reduce((n, turn) => n + (turn.screen?.errors ?? 0), 0);
  if (screenErrors > 0)
    console.log(`\n${screenErrors} screenings answered non-2xx or not at all (see ${file})`);
  const problems = turns.flatMap(turnProblems);
  if (problems.length > 0) {
    console.error(
      `\nbench:compare: webhook events were lost or not applied:\n${problems.join("\n")}`,
    );
    process.exitCode = 1;
  }
}

runBench("bench:compare", main);
