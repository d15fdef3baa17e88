/**
 * The packed client as a merchant's project gets it: downloaded from Warden, installed by npm
 * into an empty directory outside this repository (no registry, no zod, no @trpc/client
 * there), run by plain Node against Warden, and type-checked: its types are the shared
 * schema's, and a wrong event type does not compile.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMerchant } from "../helpers/merchants.ts";
import { backendOf } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const TSC = join(ROOT, "node_modules/.bin/tsc");

describe("warden/client packed as an npm tarball", () => {
  let t: TestApp;
  let project: string;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp("embedded");
    key = (await backendOf(t, await signedInMerchant(t, "package@example.com"))).key;
    project = await mkdtemp(join(tmpdir(), "merchant-project-"));
    await writeFile(join(project, "package.json"), '{ "name": "shop", "type": "module" }\n');
  });
  afterAll(async () => {
    await t?.close();
    await rm(project, { recursive: true, force: true });
  });

  it("is served by Warden and installs with npm from its URL", async () => {
    const response = await fetch(`${t.baseUrl}/sdk/warden-client.tgz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    await run("npm", ["install", `${t.baseUrl}/sdk/warden-client.tgz`, "--no-audit", "--no-fund"], {
      cwd: project,
    });
    const { stdout } = await run("npm", ["ls", "--all", "--parseable"], { cwd: project });
    // Nothing but the client itself: it installs where no registry is reachable.
    expect(stdout.trim().split("\n").slice(1)).toEqual([join(project, "node_modules/warden")]);
    // Its README says why the default timeout is what the code says it is.
    const code = await readFile(join(ROOT, "sdk/client/index.ts"), "utf8");
    const defaultMs = /timeoutMs = (\d+)/.exec(code)?.[1];
    const readme = await readFile(join(project, "node_modules/warden/README.md"), "utf8");
    expect(readme).toContain(`## Why the timeout is ${defaultMs} ms`);
  }, 120_000);

  it("screens from plain Node in the merchant's project", async () => {
    const script = [
      'import { createWardenClient } from "warden/client";',
      `const warden = createWardenClient({ url: ${JSON.stringify(t.baseUrl)}, apiKey: process.env.KEY, timeoutMs: 5000 });`,
      'console.log(JSON.stringify(await warden.screen({ type: "signup", email: "ann@example.com" })));',
    ].join("\n");
    await writeFile(join(project, "screen.js"), script);
    const { stdout } = await run(process.execPath, ["screen.js"], {
      cwd: project,
      env: { ...process.env, KEY: key },
    });
    const answer = JSON.parse(stdout) as { id: string };
    expect(answer).toMatchObject({ decision: "allow", degraded: false, reasons: [] });
    expect(await t.prisma.screening.count({ where: { id: answer.id } })).toBe(1);
  }, 60_000);

  it("type-checks with the shared schema's types, and refuses a wrong event type", async () => {
    const schema = join(ROOT, "shared/schemas/screening.ts");
    const check = `
import { createWardenClient, WardenError, type ScreenAnswer, type ScreenInput, type ScreenResult } from "warden/client";
import type { ScreenInput as SchemaInput, ScreenResult as SchemaResult } from ${JSON.stringify(schema)};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const sameInput: Same<ScreenInput, SchemaInput> = true;
export const sameResult: Same<ScreenResult, SchemaResult> = true;

const warden = createWardenClient({ url: "http://localhost:3000", apiKey: "wdn_sk_x", onError: "throw" });
export async function use(): Promise<string> {
  try {
    const answer: ScreenAnswer = await warden.screen({ type: "trial_start", email: "a@b.co" });
    if (answer.degraded) return answer.error.code;
    // @ts-expect-error: not one of the schema's event types
    await warden.screen({ type: "sign-up" });
    return answer.reasons.map((reason) => reason.rule + reason.message).join();
  } catch (error) {
    if (error instanceof WardenError) return error.issues.map((issue) => issue.path).join();
    throw error;
  }
}
`;
    await writeFile(join(project, "check.ts"), check);
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          allowImportingTsExtensions: true,
          skipLibCheck: false,
          types: [],
          lib: ["es2022", "dom"],
        },
        files: ["check.ts"],
      }),
    );
    const result = await run(TSC, ["-p", "tsconfig.json"], { cwd: project }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  }, 120_000);
});
