/**
 * bench:start's cases: first and second start on the embedded database and on PostgreSQL
 * (each database created and dropped here), and a bare Fastify process for scale.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ROOT } from "../../lib/bench-process.ts";
import { measure, NPM_START, RUNS, type Sample } from "./measure.ts";

const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

export type CaseResult = { name: string; samples: Sample[] };

export async function embeddedCases(): Promise<CaseResult[]> {
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

export async function postgresCases(adminUrl: string): Promise<CaseResult[]> {
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

export async function bareCase(): Promise<CaseResult> {
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
