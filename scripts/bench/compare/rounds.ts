/**
 * bench:compare's rounds. Each round: the bare route once (the screening's two loads, the
 * webhooks' load), then on each database the two trees one after the other, the base first in
 * odd rounds and the head first in even ones, so neither always runs on a machine warmed (or
 * tired) by the other. A tree's turn: a screening server, then a fresh webhooks server, each
 * started from that tree's dist/ with a fresh data dir or database, stopped after. With
 * --profile each of those servers writes a CPU profile, split into phases after the turn
 * (profiles.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { type DatabaseKind, databaseLabel } from "../warden.ts";
import { benchBare as webhooksBare, benchWarden as webhooksWarden } from "../webhooks/runs.ts";
import { options } from "./options.ts";
import type { Half } from "./phases.ts";
import { type PhaseRun, profileArgs, profileDir, readPhases } from "./profiles.ts";
import type { BareFigures, Figures, Round } from "./report.ts";
import { type ScreenRun, screenBare, screenRun } from "./screen.ts";
import type { Tree, TreeName } from "./trees.ts";

type WebhooksRun = Awaited<ReturnType<typeof webhooksWarden>>;

/** One server's turn in a round, with everything it measured (kept in the results file). */
export type Turn = {
  round: number;
  database: DatabaseKind;
  tree: TreeName;
  figures: Figures;
  screen: ScreenRun | null;
  webhooks: WebhooksRun | null;
  /** With --profile: each server's CPU by phase (null: that half did not run, or no profile). */
  phases?: Record<Half, PhaseRun | null>;
};

/** The 2xx answers a screening server gave: the fill and both loads. */
const screenAnswers = (run: ScreenRun) =>
  (run.fill.statuses[200] ?? 0) + run.closed.ok + run.paced.ok;

/** The 2xx answers a webhooks server gave: the warm-up and the measured events. */
const webhookAnswers = (run: WebhooksRun) =>
  (run.warmup.statuses[200] ?? 0) + (run.measured.statuses[200] ?? 0);

/** The table's figures from one turn's runs. */
export function figuresOf(screen: ScreenRun | null, webhooks: WebhooksRun | null): Figures {
  const answered = webhooks ? (webhooks.measured.statuses[200] ?? 0) : 0;
  return {
    closedPerSecond: screen?.closed.requestsPerSecond ?? null,
    cpuMsPerScreening: screen?.cpuMsEach ?? null,
    pacedServed: screen?.paced.achieved ?? null,
    pacedP50: screen?.paced.p50 ?? null,
    pacedP99: screen?.paced.p99 ?? null,
    pacedUnanswered: screen?.paced.unanswered ?? null,
    webhooksPerSecond: webhooks?.measured.perSecond ?? null,
    cpuMsPerEvent:
      webhooks?.serverCpuSeconds != null && answered > 0
        ? (webhooks.serverCpuSeconds * 1000) / answered
        : null,
    rssAfterStartMb: screen?.rssAfterStartMb ?? null,
  };
}

/** The bare route's throughputs this round. */
async function bareTurn(workDir: string, round: number): Promise<BareFigures> {
  console.error(`\n== round ${round}/${options.rounds}: the bare route ==`);
  const screen = options.run.screen ? await screenBare(workDir) : null;
  const webhooks = options.run.webhooks ? await webhooksBare(workDir) : null;
  return {
    screenClosed: screen?.closed.requestsPerSecond ?? null,
    screenPaced: screen?.paced.achieved ?? null,
    webhooks: webhooks?.perSecond ?? null,
  };
}

/** One tree on one database: the screening server, then the webhooks server. */
async function treeTurn(
  tree: Tree,
  database: DatabaseKind,
  round: number,
  workDir: string,
  stripeUrl: string,
  profilesDir: string | null,
): Promise<Turn> {
  const label = `${tree.name} ${tree.label}, ${databaseLabel(database)}`;
  console.error(`\n== round ${round}/${options.rounds}: ${label} ==`);
  const dir = await mkdtemp(join(workDir, `r${round}-${tree.name}-${database}-`));
  const profiled = (half: Half) =>
    profilesDir ? profileDir(profilesDir, tree.name, database, half, round) : null;
  const screenProfile = profiled("screen");
  const webhooksProfile = profiled("webhooks");
  try {
    const screen = options.run.screen
      ? await screenRun(
          label,
          tree.root,
          database,
          dir,
          screenProfile ? profileArgs(screenProfile) : [],
        )
      : null;
    const webhooks = options.run.webhooks
      ? await webhooksWarden(
          database,
          dir,
          stripeUrl,
          tree.root,
          webhooksProfile ? profileArgs(webhooksProfile) : [],
        )
      : null;
    const phases = profilesDir
      ? {
          screen:
            screen && screenProfile
              ? await readPhases(screenProfile, "screen", screenAnswers(screen))
              : null,
          webhooks:
            webhooks && webhooksProfile
              ? await readPhases(webhooksProfile, "webhooks", webhookAnswers(webhooks))
              : null,
        }
      : undefined;
    return {
      round,
      database,
      tree: tree.name,
      figures: figuresOf(screen, webhooks),
      screen,
      webhooks,
      ...(phases && { phases }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What failed a turn: webhook events lost or not applied (the run then fails). */
export function turnProblems(turn: Turn): string[] {
  const where = `round ${turn.round}, ${turn.tree}, ${databaseLabel(turn.database)}`;
  return (turn.webhooks?.problems ?? []).map((problem) => `${where}: ${problem}`);
}

/**
 * Every round, in order: the rounds' figures for the table and every turn in full; with
 * `profilesDir`, every server's CPU profile is written under it.
 */
export async function runRounds(
  trees: Record<TreeName, Tree>,
  workDir: string,
  stripeUrl: string,
  profilesDir: string | null = null,
): Promise<{ rounds: Round[]; turns: Turn[] }> {
  const rounds: Round[] = [];
  const turns: Turn[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const bare = await bareTurn(workDir, round);
    const runs: Round["runs"] = {};
    for (const database of options.databases) {
      const order = round % 2 === 1 ? [trees.base, trees.head] : [trees.head, trees.base];
      for (const tree of order) {
        const turn = await treeTurn(tree, database, round, workDir, stripeUrl, profilesDir);
        turns.push(turn);
        runs[database] = { ...runs[database], [tree.name]: turn.figures };
      }
    }
    rounds.push({ round, bare, runs });
  }
  return { rounds, turns };
}
