/**
 * Packs `warden/client` for a merchant's own project as an npm tarball that Warden serves
 * (GET /sdk/warden-client.tgz): one ESM file with @trpc/client bundled in (no dependencies,
 * so `npm install <url>` needs no registry) and a client.d.ts whose screening types are
 * printed from the shared zod schema. Built in memory on first request, in about a second.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ZScreenInput, ZScreenResult } from "../../shared/schemas/screening.ts";
import { tarGz } from "./tar.ts";
import { zodToTs } from "./zod-to-ts.ts";

const CLIENT_DIR = join(import.meta.dirname, "../client");
const ROOT = join(import.meta.dirname, "../..");

/** The runtime exports' declarations; their types live in sdk/client/types.ts. */
const RUNTIME_DECLARATIONS = `
export declare function createWardenClient(options: WardenClientOptions): WardenClient;

/**
 * Checks a decision webhook: the raw body as received, the Warden-Signature header, and the
 * endpoint's signing secret (whsec_…). Refuses timestamps older than the tolerance (300 s).
 */
export declare function verifyWebhook(
  body: string,
  header: string | null | undefined,
  secret: string,
  options?: { toleranceSeconds?: number; now?: number },
): Promise<{ ok: true; timestamp: number } | { ok: false; reason: string }>;

export declare class WardenError extends Error {
  readonly code: WardenErrorCode;
  /** Warden's HTTP status, or null when no answer came. */
  readonly status: number | null;
  /** For BAD_REQUEST: each field and what is wrong with it. */
  readonly issues: WardenFieldIssue[];
  constructor(
    code: WardenErrorCode,
    message: string,
    status?: number | null,
    issues?: WardenFieldIssue[],
    options?: { cause?: unknown },
  );
}
`;

export async function buildClientPackage(): Promise<Buffer> {
  const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const [js, dts] = await Promise.all([bundle(), declarations()]);
  const manifest = {
    name: "warden",
    version,
    description: "Typed client for Warden's screening API (warden/client).",
    type: "module",
    exports: { "./client": { types: "./client.d.ts", default: "./client.js" } },
    engines: { node: ">=18" },
    license: "MIT",
  };
  return tarGz([
    { path: "package/package.json", content: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: "package/client.js", content: js },
    { path: "package/client.d.ts", content: dts },
    {
      path: "package/README.md",
      content: README,
    },
  ]);
}

/** The package's README: where it comes from, and why its timeout is what it is. */
const README = `# warden/client

Served by your Warden at /sdk/warden-client.tgz. See "Integrate in five minutes" in Warden's
docs/getting-started.md.

## Why the timeout is 300 ms

\`timeoutMs\` (default 300) is how long your signup or checkout waits for Warden before it
goes ahead with \`{ decision: "allow", degraded: true }\`. Measured with \`npm run bench:screen\`
on a shared 2-core machine (Warden, its database and the load on the same two cores;
docs/scaling.md has the runs). Within Warden's capacity most screenings take a few
milliseconds (p50 mostly 5-10 ms), but the slowest 1% wait for the server's own queue: on
PostgreSQL at 1,000 a second, sent one every millisecond, p99 24-168 ms in about thirty runs
(two runs 324 ms); 16-27 ms from 10 connections; about 40-50 ms with 32 connections flat out;
on the embedded database at 500 a second, p99 30-133 ms. So 300 ms is above the slowest 1% of all
but two of those runs, and a healthy Warden is almost never cut off. Past its capacity,
answers queue and wait seconds, not milliseconds: waiting longer would hold your customer
without getting a decision. Raise it only if Warden runs far from your backend (add the
round trip); lower it if your page has a tighter budget, and alert on \`onDegraded\`.
`;

async function bundle(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [join(CLIENT_DIR, "index.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "default"],
    target: "es2022",
    legalComments: "inline",
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild produced no output");
  return output.text;
}

/** types.ts as it is, with its import of the shared schema replaced by the printed types. */
async function declarations(): Promise<string> {
  const source = await readFile(join(CLIENT_DIR, "types.ts"), "utf8");
  const body = source
    .replace(/^import type \{[^}]*\} from "[^"]*";\n/m, "")
    .replace(/^export type \{ ScreenInput, ScreenResult \};\n/m, "");
  if (/^\s*(import|export .* from )/m.test(body))
    throw new Error("types.ts imports something the package lacks");
  return [
    "// Generated by Warden (sdk/package/build-package.ts) from its shared schema.",
    "",
    "/** What your backend sends about an event (POST /api/v1/screen takes the same). */",
    `export type ScreenInput = ${zodToTs(ZScreenInput, "input")};`,
    "",
    "/** Warden's answer. */",
    `export type ScreenResult = ${zodToTs(ZScreenResult, "output")};`,
    body.trimEnd(),
    RUNTIME_DECLARATIONS,
  ].join("\n");
}
