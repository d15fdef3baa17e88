/**
 * A child process of the fit (pool.ts): plays the one seed its parent sends (collect.ts, on its
 * own Warden and database), reports progress, sends the rows back and exits. A process per
 * seed keeps every seed's events independent of which seeds ran before it, and of how many run
 * at once.
 */
import { collect, type Play } from "./collect.ts";

export type WorkerMessage =
  | { kind: "progress"; done: number; total: number }
  | { kind: "rows"; rows: Awaited<ReturnType<typeof collect>> }
  | { kind: "error"; message: string };

const send = (message: WorkerMessage) =>
  new Promise<void>((done) => {
    if (!process.send) throw new Error("seed-worker.ts runs as a child of the fit (pool.ts)");
    process.send(message, undefined, {}, () => done());
  });

process.once("message", (play: Play) => {
  collect(play, (done, total) => void send({ kind: "progress", done, total }))
    .then((rows) => send({ kind: "rows", rows }))
    .then(() => process.exit(0))
    .catch(async (error: unknown) => {
      await send({
        kind: "error",
        message: error instanceof Error ? error.message : String(error),
      });
      process.exit(1);
    });
});
