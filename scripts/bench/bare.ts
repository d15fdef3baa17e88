/**
 * The floor every benchmark is read against: a bare Fastify route (bare-server.ts) in a process
 * of its own, loaded in the same run as Warden, so a figure carries what this machine does
 * with no Warden at all.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import autocannon from "autocannon";
import { freePort, HOST, start, stop, waitUntil } from "../lib/bench-process.ts";

/** The bare route, once it answers; stop the child when done. */
export async function startBare(workDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const logFile = join(workDir, "bare.log");
  const child = start(
    "bare route",
    "scripts/bench/bare-server.ts",
    { PORT: String(port) },
    logFile,
  );
  const url = `http://${HOST}:${port}/bare`;
  await waitUntil("the bare route", child, logFile, async () => {
    const r = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    return r.ok;
  });
  return { url, child };
}

/** The bare route's requests a second under a plain autocannon load (POST {}). */
export async function bareRequestsPerSecond(
  workDir: string,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<number> {
  const { url, child } = await startBare(workDir);
  try {
    const result = await autocannon({
      url,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      connections,
      duration: seconds,
    });
    return result.requests.average;
  } finally {
    await stop(child);
  }
}
