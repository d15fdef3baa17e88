/**
 * `npm run bench:start`: how long `npm start` takes to answer and how much memory the server
 * then holds. Runs the real `npm start` as a child process with a temporary DATA_DIR and a free
 * PORT, times spawn → first 200 from /healthz, and 2 s later reads VmRSS of the node server
 * process (found among npm's descendants, not npm itself).
 *
 * Cases: first start on an empty data dir, second start on the same data dir, and, when
 * BENCH_DATABASE_URL is set, a first start on a fresh PostgreSQL database (migrations applied)
 * and a second one (up to date); each database is created and dropped here. A bare Fastify
 * process start is measured the same way for scale. BENCH_RUNS (default 3) repetitions per
 * case; the median is reported. `--json <file>` writes the bench contract's JSON.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { cpuSeconds, machineLine, memoryMb } from "./bench/machine.ts";
import { freePort } from "./lib/bench-process.ts";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RSS_DELAY_MS = 2000;
const TIMEOUT_MS = 60_000;
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

type Sample = { startMs: number; rssMb: number; cpuS: number; pid: number; command: string };

/** Every process's parent, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      map.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
}

/** The node process serving HTTP: the descendant of `root` that runs node and has no node child. */
function serverPid(root: number): number {
  const tree = parents();
  const descendants = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of tree) {
      if (descendants.has(ppid) && !descendants.has(pid)) {
        descendants.add(pid);
        grew = true;
      }
    }
  }
  const isNode = (pid: number) => {
    try {
      // Node 24 names its main thread "MainThread", so a node process's comm is that, not
      // "node"; npm renames its own process ("npm start"), so it is never taken for the server.
      const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      return comm.startsWith("node") || comm === "MainThread";
    } catch {
      return false;
    }
  };
  const nodes = [...descendants].filter(isNode);
  const leaves = nodes.filter((pid) => !nodes.some((other) => tree.get(other) === pid));
  const pid = leaves[0];
  if (leaves.length !== 1 || pid === undefined) {
    throw new Error(`expected one server process under ${root}, found ${leaves.join(", ")}`);
  }
  return pid;
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no 200 from /healthz in 60 s");
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  // npm forwards SIGTERM to the script it runs.
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Spawns `command`, times the first 200 from /healthz, reads the server's RSS 2 s later. */
async function measure(command: string[], env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0] ?? "npm", command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  try {
    await waitForHealth(port, child);
    const startMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, RSS_DELAY_MS));
    const pid = serverPid(child.pid ?? -1);
    return {
      startMs,
      rssMb: memoryMb(pid)?.rssMb ?? Number.NaN,
      cpuS: cpuSeconds(pid) ?? Number.NaN,
      pid,
      command: commandOf(pid),
    };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    await stop(child);
  }
}

const NPM_START = ["npm", "start", "--silent"];

type CaseResult = { name: string; samples: Sample[] };

async function embeddedCases(): Promise<CaseResult[]> {
  const first: Sample[] = [];
  const second: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-start-"));
    try {
      first.push(await measure(NPM_START, { DATA_DIR: dataDir }));
      second.push(await measure(NPM_START, { DATA_DIR: dataDir }));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    process.stderr.write(`  embedded run ${run + 1}/${RUNS}\n`);
  }
  return [
    { name: "embedded, first start (empty data dir)", samples: first },
    { name: "embedded, second start", samples: second },
  ];
}

async function postgresCases(adminUrl: string): Promise<CaseResult[]> {
  const first: Sample[] = [];
  const second: Sample[] = [];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let run = 0; run < RUNS; run++) {
      const name = `warden_bench_start_${Date.now().toString(36)}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const dataDir = await mkdtemp(join(tmpdir(), "warden-bench-start-"));
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), ENCRYPTION_KEY };
      try {
        first.push(await measure(NPM_START, env));
        second.push(await measure(NPM_START, env));
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await rm(dataDir, { recursive: true, force: true });
      }
      process.stderr.write(`  postgres run ${run + 1}/${RUNS}\n`);
    }
  } finally {
    await admin.end();
  }
  return [
    { name: "postgres, first start (migrations applied)", samples: first },
    { name: "postgres, second start", samples: second },
  ];
}

async function bareCase(): Promise<CaseResult> {
  const dir = await mkdtemp(join(tmpdir(), "warden-bench-bare-"));
  const file = join(dir, "bare.mjs");
  // Resolved from the project, so the same Fastify as the server's.
  const fastify = join(ROOT, "node_modules/fastify/fastify.js");
  await writeFile(
    file,
    `import Fastify from ${JSON.stringify(fastify)};
const app = Fastify();
app.get("/healthz", async () => ({ status: "ok" }));
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`,
  );
  const samples: Sample[] = [];
  try {
    for (let run = 0; run < RUNS; run++) samples.push(await measure(["node", file], {}));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { name: "bare Fastify process (node, one route)", samples };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const TARGETS: Record<string, { start: string; rss: string }> = {
  "embedded, first start (empty data dir)": { start: "<= 6", rss: "<= 300" },
  "embedded, second start": { start: "<= 3", rss: "<= 300" },
  "postgres, first start (migrations applied)": { start: "<= 3", rss: "<= 150" },
  "postgres, second start": { start: "<= 3", rss: "<= 150" },
};

function results(cases: CaseResult[]) {
  return cases.flatMap(({ name, samples }) => {
    const target = TARGETS[name] ?? { start: "", rss: "" };
    const detail = {
      runs: samples.map((s) => ({
        startS: round(s.startMs / 1000),
        rssMb: round(s.rssMb),
        serverCpuS: s.cpuS,
      })),
      medianServerCpuS: round(median(samples.map((s) => s.cpuS))),
      serverCommand: samples[0]?.command ?? "",
    };
    return [
      {
        name: `${name}: spawn to first 200`,
        value: round(median(samples.map((s) => s.startMs)) / 1000),
        unit: "s",
        target: target.start,
        bare: null,
        detail,
      },
      {
        name: `${name}: RSS 2 s after`,
        value: round(median(samples.map((s) => s.rssMb))),
        unit: "MB",
        target: target.rss,
        bare: null,
        detail,
      },
    ];
  });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

async function main() {
  const jsonAt = process.argv.indexOf("--json");
  const jsonFile = jsonAt >= 0 ? process.argv[jsonAt + 1] : undefined;
  // Build first (as npm start would), so the first timed start does not include a build.
  const build = spawn("node", ["scripts/ensure-build.mjs"], { cwd: ROOT, stdio: "inherit" });
  await new Promise((r) => build.once("exit", r));

  const cases: CaseResult[] = [await bareCase(), ...(await embeddedCases())];
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) cases.push(...(await postgresCases(adminUrl)));
  else process.stderr.write("BENCH_DATABASE_URL not set: PostgreSQL cases skipped\n");

  const rows = results(cases);
  console.log(
    `\nnpm start, median of ${RUNS} (RSS read ${RSS_DELAY_MS / 1000} s after the answer); ${machineLine()}`,
  );
  console.table(
    rows.map((row) => ({
      case: row.name,
      value: `${row.value} ${row.unit}`,
      target: row.target,
      runs: row.detail.runs.map((r) => (row.unit === "s" ? r.startS : r.rssMb)).join(" / "),
      "server CPU s": row.unit === "s" ? row.detail.medianServerCpuS : "",
    })),
  );
  if (jsonFile) {
    await writeFile(jsonFile, `${JSON.stringify({ bench: "start", results: rows }, null, 2)}\n`);
  }
}

await main();
