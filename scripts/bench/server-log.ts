/** What a benchmark reads from the server's own log and database while it runs. */
import { readFileSync } from "node:fs";
import pg from "pg";
import { sleep } from "../lib/bench-process.ts";
import { cpuSeconds } from "./machine.ts";

/** Distinct warnings and errors from the server's log (pino JSON lines), most frequent first. */
export function serverProblems(logFile: string) {
  const seen = new Map<string, number>();
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let key = line.slice(0, 300);
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { type?: string; message?: string };
      };
      if ((entry.level ?? 0) < 40) continue;
      key = [entry.msg, entry.err?.type, entry.err?.message?.split("\n")[0]?.slice(0, 300)]
        .filter(Boolean)
        .join(": ");
    } catch {
      // not JSON: stderr text, kept as is
    }
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].sort((a, b) => b[1] - a[1]).map(([message, count]) => ({ count, message }));
}

/**
 * Every 250 ms, what the server's PostgreSQL sessions are doing (state and wait event, e.g.
 * "active Lock:advisory" or "idle in transaction ClientRead"): where the time goes.
 */
export function sampleWaits(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts: Record<string, number> = {};
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `SELECT concat_ws(' ', state, wait_event_type || ':' || wait_event) AS what, count(*)::int AS n
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
          GROUP BY 1`,
      );
      for (const row of rows) counts[row.what] = (counts[row.what] ?? 0) + row.n;
      await sleep(250);
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop.catch(() => {});
      return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
    },
  };
}

/** CPU seconds so far of each PostgreSQL session, by pid. */
export type SessionCpu = Map<number, number>;

/**
 * The CPU of the server's PostgreSQL sessions (`snapshot`, read from /proc: a PostgreSQL on
 * this machine only; null for another host). What a load cost PostgreSQL is the difference of
 * two snapshots (`cpuBetween`). A session that ends during the load takes its CPU with it, so
 * this is a lower bound; the server's pool keeps its sessions open while it is busy.
 */
export function sessionCpu(databaseUrl: string) {
  const host = new URL(databaseUrl).hostname;
  if (!["127.0.0.1", "localhost", "[::1]", ""].includes(host)) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  const connected = client.connect();
  return {
    async snapshot(): Promise<SessionCpu> {
      await connected;
      const { rows } = await client.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      const cpu: SessionCpu = new Map();
      for (const { pid } of rows) {
        const seconds = cpuSeconds(pid);
        if (seconds !== null) cpu.set(pid, seconds);
      }
      return cpu;
    },
    close: () => client.end().catch(() => {}),
  };
}

/** CPU seconds the sessions used between two snapshots (sessions new since `before` count whole). */
export function cpuBetween(before: SessionCpu, after: SessionCpu): number {
  let seconds = 0;
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}
