/**
 * `npm run bench:erasure`: what an end user's erasure costs (issue 41). Warden runs as its own
 * process (as `npm start` runs it); this process fills one account with BENCH_SCREENINGS
 * (default 50,000) screenings over the real API (people of five events each, with reviews
 * settled with a note, labels, allow entries and decision webhooks to a local sink), then:
 *  - times the erasure of one person by email, ten people in a row (and their preview);
 *  - screens for a second account at a paced BENCH_RATE (default 100/s) from this process,
 *    first alone, then while ten erasures run back to back, and compares that account's
 *    latency (p50, p99) in the two windows, beside a bare Fastify route at the same rate.
 * `--db postgres|embedded` (default both); PostgreSQL from BENCH_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres; a database made and dropped here). It uses
 * only the API of the erasure as it was before issue 41 too, so the same script measures an
 * older checkout.
 */

import { mkdtemp, rm } from "node:fs/promises";
/**
 * `npm run bench:erasure`: what an end user's erasure costs (issue 41). Warden runs as its own
 * process (as `npm start` runs it); this process fills one account with BENCH_SCREENINGS
 * (default 50,000) screenings over the real API (people of five events each, with reviews
 * settled with a note, labels, allow entries and decision webhooks to a local sink), then:
 *  - times the erasure of one person by email, ten people in a row (and their preview);
 *  - screens for a second account at a paced BENCH_RATE (default 100/s) from this process,
 *    first alone, then while ten erasures run back to back, and compares that account's
 *    latency (p50, p99) in the two windows, beside a bare Fastify route at the same rate.
 * `--db postgres|embedded` (default both); PostgreSQL from BENCH_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres; a database made and dropped here). It uses
 * only the API of the erasure as it was before issue 41 too, so the same script measures an
 * older checkout.
 */
import http, { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBare } from "./bench/bare.ts";
import { machineLine } from "./bench/machine.ts";
import { databaseKinds, launchWarden, type WardenProcess } from "./bench/warden.ts";
import { call, cleanup, signUpMerchant, stop } from "./lib/bench-process.ts";
import { flags, progressBar } from "./lib/progress.ts";

const args = flags();
const SCREENINGS = Number(process.env.BENCH_SCREENINGS ?? 50_000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const ERASURES = 10;
const PASSWORD = "bench erasure password";
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const BOT = "python-requests/2.31";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One JSON request over the keep-alive agent: status and milliseconds. */
function send(url: string, key: string, body: unknown): Promise<{ status: number; ms: number }> {
  const payload = JSON.stringify(body);
  const target = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${key}`,
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(payload);
  });
}

const person = (i: number) => ({
  email: `person${i}.bench@example.com`,
  user_id: `usr_${i}`,
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  device_id: `dev_${i}`,
});

/** A merchant with a secret key, the email rule on, and decision webhooks to a local sink. */
async function merchant(w: WardenProcess, name: string, sinkUrl: string | null) {
  const token = await signUpMerchant(
    w.base,
    w.dataDir,
    PASSWORD,
    `${name}-${Date.now()}@example.com`,
  );
  const { key } = await call<{ key: string }>(w.base, "/api/api-keys", { token, body: { name } });
  const rules = await call<Record<string, unknown>>(w.base, "/api/rules", { token });
  await call(w.base, "/api/rules", {
    method: "PUT",
    token,
    body: { ...rules, rule_scraping: true, rule_email: true },
  });
  if (sinkUrl) {
    await call(w.base, "/trpc/webhooks.createEndpoint", {
      token,
      body: { url: sinkUrl, events: ["screening.review", "review.denied", "label.created"] },
    });
  }
  return { token, key };
}

/** Fills the account: each person five events, one a bot's request settled with a note. */
async function fill(w: WardenProcess, key: string, token: string) {
  const people = Math.ceil(SCREENINGS / 5);
  const bar = progressBar(`${w.label}: filling ${SCREENINGS.toLocaleString()} screenings`);
  let done = 0;
  const one = async (i: number) => {
    const p = person(i);
    for (const type of ["signup", "trial_start", "checkout", "login"] as const) {
      await send(`${w.base}/api/v1/screen`, key, { type, ...p, user_agent: CHROME });
    }
    await send(`${w.base}/api/v1/screen`, key, { type: "request", ...p, user_agent: BOT });
    done++;
    if (done % 200 === 0) bar.update((done / people) * 100, `${done * 5} screened`);
  };
  const workers = 16;
  await Promise.all(
    Array.from({ length: workers }, async (_, w0) => {
      for (let i = w0; i < people; i += workers) await one(i);
    }),
  );
  bar.done(`${w.label}: filled ${(people * 5).toLocaleString()} screenings`);
  // A few hundred notes, labels and allow entries naming people (audit events, deliveries).
  const queue = await call<{ items: { id: string }[] }>(
    w.base,
    `/trpc/review.queue?input=${encodeURIComponent(JSON.stringify({ limit: 200 }))}`,
    { token },
  ).catch(() => null);
  const items = (queue as unknown as { result?: { data?: { items?: { id: string }[] } } })?.result
    ?.data?.items;
  for (const [n, item] of (items ?? []).entries()) {
    await send(`${w.base}/api/v1/screenings/${item.id}/decision`, key, {
      decision: "deny",
      note: `Phoned person${n}.bench@example.com`,
    });
    await send(`${w.base}/api/v1/labels`, key, {
      subject_kind: "screening",
      subject_id: item.id,
      label: "fraud",
      note: `usr_${n} disputed`,
    });
  }
  for (let i = 0; i < 300; i++) {
    await call(w.base, "/api/allowlist", {
      token,
      body: { kind: "email", value: person(i).email, note: `VIP ${person(i).email}` },
    }).catch(() => undefined);
  }
}

type Sample = { at: number; ms: number; status: number };

/** Screens for `key` at RATE a second for `seconds`; each answer's send time and latency. */
async function paced(base: string, key: string, seconds: number, path = "/api/v1/screen") {
  const samples: Sample[] = [];
  const total = Math.round(RATE * seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = performance.now();
    pending.push(
      send(`${base}${path}`, key, {
        type: "signup",
        email: `other${i}-${Math.random().toString(36).slice(2)}@example.org`,
        user_agent: CHROME,
      }).then(({ ms, status }) => {
        samples.push({ at, ms, status });
      }),
    );
  }
  await Promise.all(pending);
  return samples;
}

const pct = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length
    ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
    : 0;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function bench(kind: "postgres" | "embedded", workDir: string) {
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;
  const w = await launchWarden(kind, workDir, {
    adminUrl: ADMIN_URL,
    databasePrefix: "warden_bench_erasure",
    env: { WEBHOOKS_ALLOW_PRIVATE: "true", SCREEN_RATE_LIMIT: "10000000" },
  });
  const bare = await startBare(workDir);
  try {
    await w.ready();
    const main = await merchant(w, "erasure-main", sinkUrl);
    const other = await merchant(w, "erasure-other", null);
    await fill(w, main.key, main.token);

    // The erasure itself: ten people in a row, each one request.
    const previews: number[] = [];
    const erasures: number[] = [];
    for (let i = 0; i < ERASURES; i++) {
      const email = person(1000 + i).email;
      const t0 = performance.now();
      await call(w.base, `/api/v1/end-users/export?email=${encodeURIComponent(email)}`, {
        token: main.key,
      });
      previews.push(performance.now() - t0);
      const erased = await send(`${w.base}/api/v1/end-users/erase`, main.key, { email });
      if (erased.status !== 200) throw new Error(`erasure answered ${erased.status}`);
      erasures.push(erased.ms);
    }

    // Another account's screenings, alone and during ten erasures back to back.
    const baseline = await paced(w.base, other.key, 15);
    const window: { from: number; to: number } = { from: 0, to: 0 };
    const during = paced(w.base, other.key, 30);
    await new Promise((r) => setTimeout(r, 2000));
    window.from = performance.now();
    for (let i = 0; i < ERASURES; i++) {
      await send(`${w.base}/api/v1/end-users/erase`, main.key, { email: person(2000 + i).email });
    }
    window.to = performance.now();
    const loaded = (await during).filter((s) => s.at >= window.from && s.at <= window.to);
    const bareUrl = new URL(bare.url);
    const bareSamples = await paced(bareUrl.origin, "x", 10, bareUrl.pathname);

    const ok = (samples: Sample[]) => samples.filter((s) => s.status === 200).map((s) => s.ms);
    console.log(`\n## ${w.label}: ${machineLine()}`);
    console.log(`| | median | p95 | max |\n|---|---:|---:|---:|`);
    console.log(
      `| export of one person (${SCREENINGS.toLocaleString()} screenings stored) | ${fmt(pct(previews, 0.5))} | ${fmt(pct(previews, 0.95))} | ${fmt(Math.max(...previews))} |`,
    );
    console.log(
      `| erasure of one person | ${fmt(pct(erasures, 0.5))} | ${fmt(pct(erasures, 0.95))} | ${fmt(Math.max(...erasures))} |`,
    );
    console.log(
      `\n| another account's screenings at ${RATE}/s | answered | non-200 | p50 | p99 |\n|---|---:|---:|---:|---:|`,
    );
    for (const [name, samples] of [
      ["alone (15 s)", baseline],
      [`during ten erasures (${((window.to - window.from) / 1000).toFixed(1)} s)`, loaded],
      ["bare Fastify route, same rate", bareSamples],
    ] as const) {
      const good = ok(samples);
      console.log(
        `| ${name} | ${samples.length} | ${samples.length - good.length} | ${fmt(pct(good, 0.5))} | ${fmt(pct(good, 0.99))} |`,
      );
    }
  } finally {
    await stop(bare.child);
    await w.close();
    sink.close();
  }
}

async function main() {
  const workDir = await mkdtemp(join(tmpdir(), "warden-bench-erasure-"));
  try {
    for (const kind of databaseKinds(args.db)) await bench(kind, workDir);
  } finally {
    agent.destroy();
    await cleanup();
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
