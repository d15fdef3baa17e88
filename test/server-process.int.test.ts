/** The real entry point as a child process: configuration errors, start, graceful shutdown. */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "./helpers/test-app.ts";

function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, stderr: () => stderr };
}

describe("server process", () => {
  it.each([
    [{ PORT: "abc" }, /^Configuration error: PORT: must be a port number \(got "abc"\)\n$/],
    [
      {
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/warden",
        ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      },
      /^Configuration error: DATABASE_URL: cannot connect to 127\.0\.0\.1:1: ECONNREFUSED.*\n$/,
    ],
    // Well-formed, but Fastify's proxy-addr refuses it: the server used to start and answer
    // every request with a 500.
    [
      { TRUST_PROXY: "10.0.0.0/0" },
      /^Configuration error: TRUST_PROXY: must be the number of proxies in front of Warden .*\(got "10\.0\.0\.0\/0"\)\n$/,
    ],
    [{ TRUST_PROXY: "true" }, /^Configuration error: TRUST_PROXY: .*`true` is no longer accepted/],
  ])("stops on %o with one clear line and exit code 1", async (env, line) => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-proc-"));
    const port = String(await freePort());
    const server = runServer({ DATA_DIR: dataDir, PORT: port, HOST: "127.0.0.1", ...env });
    // A server that starts after all is stopped, and the test fails (no exit code 1).
    const stop = setTimeout(() => server.child.kill("SIGKILL"), 20_000);
    const code = await server.exited;
    clearTimeout(stop);
    await rm(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(server.stderr()).toMatch(line);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });

  it("starts on an empty data dir, answers, and shuts down cleanly on SIGTERM", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-proc-"));
    const port = await freePort();
    const server = runServer({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" });
    try {
      let health: Response | undefined;
      for (let i = 0; i < 200 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health?.status).toBe(200);
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
