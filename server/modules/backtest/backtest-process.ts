/**
 * A backtest job in a process of its own (PostgreSQL; started by backtest-child.ts). It reads
 * the job from its IPC channel (account, settings, the window's end), runs the same service
 * `run` as the CLI on a small pool of its own (the URL comes in WARDEN_BACKTEST_URL, kept out
 * of argv), and sends progress, then the result or the failure. It ends when the job ends or
 * when the server that started it goes away.
 */
import pg from "pg";
import type { BacktestSettings } from "../../../shared/schemas/backtest.ts";
import { pgPoolConfig, postgresRunner } from "../../db/sql-runner.ts";
import { baseFeatures } from "../policy/policy.service.ts";
import { createBacktestRepository } from "./backtest.repository.ts";
import { createBacktestService } from "./backtest.service.ts";
import type { TruthLabel } from "./backtest-tally.ts";

export type JobMessage = {
  accountId: string;
  /** The account's digest key, computed by the server (this process holds no secret). */
  digestKey: string;
  settings: BacktestSettings;
  now: number;
  /** The labelled screenings' verdicts, read by the server (backtest.service.ts JobRunner). */
  truths: [string, TruthLabel][];
};

function send(message: object): Promise<void> {
  return new Promise((done) => {
    if (!process.send) return done();
    process.send(message, undefined, {}, () => done());
  });
}

async function runJob(job: JobMessage): Promise<void> {
  const pool = new pg.Pool({ ...pgPoolConfig(process.env.WARDEN_BACKTEST_URL ?? ""), max: 2 });
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  try {
    const service = createBacktestService({
      repo: createBacktestRepository(postgresRunner(pool)),
      policy: { features: baseFeatures },
      digestKeyOf: () => job.digestKey,
      now: () => new Date(job.now),
      truths: async () => new Map(job.truths),
      log: { error: () => {} },
    });
    const result = await service.run(
      job.accountId,
      job.settings,
      (processed, total) => void send({ type: "progress", processed, total }),
    );
    await send({ type: "done", result });
  } finally {
    await pool.end().catch(() => {});
  }
}

// The server went away (stopped, crashed): nobody is waiting for the answer.
process.once("disconnect", () => process.exit(1));
process.once("message", (job: JobMessage) => {
  runJob(job).then(
    () => process.exit(0),
    async (error: unknown) => {
      await send({ type: "failed", message: (error as Error)?.stack ?? String(error) });
      process.exit(1);
    },
  );
});
