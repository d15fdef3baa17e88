/**
 * The Dockerfile and compose.yaml, read as text and checked against the server they run:
 * no Docker engine or hadolint reaches this machine, so this is the lint CI runs. The port,
 * health path and data directory must agree with server/config.ts and server/app.ts, and
 * the README's container steps with both files: its `.env` line runs here, in an empty
 * folder, and must give compose every variable compose requires.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../server/config.ts";

const root = resolve(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(resolve(root, path), "utf8");

type Instruction = { op: string; args: string };

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [op = "", ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
}

const dockerfile = instructions(read("Dockerfile"));
const finalStage = dockerfile.slice(dockerfile.findLastIndex((i) => i.op === "FROM"));
const all = (op: string) => finalStage.filter((i) => i.op === op).map((i) => i.args);
const env = Object.fromEntries(
  all("ENV").flatMap((args) => [...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])),
);
const compose = parse(read("compose.yaml")) as {
  services: Record<string, Record<string, unknown>>;
};
const warden = compose.services.warden ?? {};
const healthRoute = /app\.get\("(\/[a-z]+)"/.exec(read("server/app.ts"))?.[1];

describe("Dockerfile", () => {
  it("builds in one stage and runs from another that copies only the build", () => {
    expect(dockerfile.filter((i) => i.op === "FROM").length).toBeGreaterThanOrEqual(2);
    expect(all("COPY").every((args) => args.startsWith("--from="))).toBe(true);
  });

  it("runs as a user that is not root", () => {
    const user = all("USER").at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
  });

  it("exposes the port the server listens on by default", () => {
    expect(all("EXPOSE")).toEqual([String(loadConfig({}).port)]);
    expect(loadConfig({ PORT: env.PORT }).port).toBe(loadConfig({}).port);
  });

  it("checks health on the server's health route and port", () => {
    expect(healthRoute).toBe("/healthz");
    const check = all("HEALTHCHECK").join(" ");
    expect(check).toContain(`${healthRoute}'`);
    expect(check).toContain(`process.env.PORT || ${loadConfig({}).port}`);
  });

  it("keeps the embedded database on a volume at DATA_DIR", () => {
    expect(env.DATA_DIR).toBeDefined();
    expect(env.DATABASE_URL).toBeUndefined();
    expect(all("VOLUME").join(" ")).toContain(`"${env.DATA_DIR}"`);
    expect(loadConfig({ DATA_DIR: env.DATA_DIR }).dataDir).toBe(env.DATA_DIR);
  });

  /**
   * The node command a start command ends in, run by the real sh with `node` on PATH replaced
   * by a script that prints its arguments (the last line is the server's launch).
   */
  function launched(command: string[]): string[] {
    const bin = mkdtempSync(join(tmpdir(), "warden-fake-node-"));
    try {
      execFileSync("sh", [
        "-c",
        `printf '#!/bin/sh\\necho "$*"\\n' > ${bin}/node; chmod +x ${bin}/node`,
      ]);
      const out = execFileSync(command[0] as string, command.slice(1), {
        cwd: root,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      });
      return (out.toString().trim().split("\n").at(-1) ?? "").split(" ");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }
  const flagsOf = (args: string[]) => args.filter((a) => a.startsWith("--") && a !== "--import");

  it("starts the compiled server with the flags npm start gives it", () => {
    const cmd = JSON.parse(all("CMD").at(-1) ?? "[]") as string[];
    expect(cmd[0]).toBe("node");
    const container = launched(cmd);
    const npmStart = launched(["sh", "-c", JSON.parse(read("package.json")).scripts.start]);
    expect(container.at(-1)).toBe("dist/server/main.js");
    expect(flagsOf(container)).toEqual(flagsOf(npmStart));
    expect(flagsOf(container)).toContain("--max-semi-space-size=4");
    // WebAssembly (PGlite, Prisma's query compiler) on the baseline compiler (decision 017).
    expect(flagsOf(container)).toContain("--liftoff-only");
  });

  it("leaves installs, builds, data and secrets out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const path of ["node_modules", "dist", "data", ".env", ".git"]) {
      expect(ignored).toContain(path);
    }
  });
});

describe("compose.yaml", () => {
  it("runs Warden from this Dockerfile once PostgreSQL is healthy", () => {
    expect(warden.build).toBe(".");
    expect(warden.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(compose.services.postgres?.healthcheck).toBeDefined();
  });

  it("points DATABASE_URL at the postgres service, with a valid configuration", () => {
    const environment = warden.environment as Record<string, string>;
    const url = new URL(environment.DATABASE_URL?.replace(/\$\{[^}]+\}/g, "pw") ?? "");
    expect(url.hostname).toBe("postgres");
    expect(environment.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/);
    const config = loadConfig({ DATABASE_URL: url.href, ENCRYPTION_KEY: "a".repeat(64) });
    expect(config.databaseUrl).toBe(url.href);
  });

  it("publishes the container's port and keeps DATA_DIR on a volume", () => {
    expect(warden.ports).toEqual([`${loadConfig({}).port}:${all("EXPOSE")[0]}`]);
    expect(warden.volumes).toEqual([expect.stringMatching(new RegExp(`:${env.DATA_DIR}$`))]);
  });
});

/** The lines of the Markdown file's `sh` blocks, block by block. */
function shellBlocks(text: string): string[][] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? "").split("\n").filter((line) => line.trim() !== ""),
  );
}

/**
 * A value as compose interpolates it (the compose specification's forms): `${VAR}`,
 * `${VAR:-default}`, `${VAR-default}`, and the required `${VAR:?error}` and `${VAR?error}`,
 * which stop `docker compose up` with their error when VAR is unset (or, with `:`, empty).
 */
function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g, (_, name, colon, op, arg) => {
    const set = env[name] !== undefined && (colon !== ":" || env[name] !== "");
    if (op === "?" && !set) throw new Error(`required variable ${name} is missing a value: ${arg}`);
    if (op === "-" && !set) return arg;
    return env[name] ?? "";
  });
}

/** Every string in compose.yaml, interpolated with `env`. */
function interpolated(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolated(item, env));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolated(item, env)]),
    );
  }
  return value;
}

/** KEY=value lines of a .env file. */
const dotenv = (text: string) =>
  Object.fromEntries(
    text
      .split("\n")
      .map((line) => /^(\w+)=(.*)$/.exec(line.trim()))
      .filter((m) => m !== null)
      .map((m) => [m[1], m[2]]),
  );

const readme = shellBlocks(read("README.md"));
const composeBlock = readme.find((lines) =>
  lines.some((line) => /^docker compose up\b/.test(line)),
);
/** The README's steps before `docker compose up`: what makes `.env`. */
const composeSetup = composeBlock?.slice(
  0,
  composeBlock.findIndex((line) => /^docker compose up\b/.test(line)),
);

describe("compose.yaml's variables", () => {
  // Written with \${ so that no linter takes them for a template placeholder.
  it.each([
    [`\${SET}-\${UNSET}`, "x-"],
    [`\${UNSET:-d} \${EMPTY:-d} \${SET:-d}`, "d d x"],
    [`[\${UNSET-d}] [\${EMPTY-d}]`, "[d] []"],
    [`[\${EMPTY?say so}]`, "[]"],
    [`\${UNSET?say so}`, /UNSET is missing a value: say so/],
    [`\${UNSET:?say so}`, /UNSET is missing a value: say so/],
    [`\${EMPTY:?say so}`, /EMPTY is missing a value/],
  ])("interpolates %s as compose does: %s", (value, expected) => {
    const env = { SET: "x", EMPTY: "" };
    if (expected instanceof RegExp) expect(() => interpolate(value, env)).toThrow(expected);
    else expect(interpolate(value, env)).toBe(expected);
  });

  it("stops before starting anything, naming ENCRYPTION_KEY and how to make it, without .env", () => {
    expect(() => interpolated(compose, {})).toThrow(/ENCRYPTION_KEY.*openssl rand -base64 32/);
  });

  it("gets every variable it requires from the README's .env line, run in an empty folder", () => {
    expect(composeSetup?.join("\n")).toMatch(/>> \.env$/m);
    const dir = mkdtempSync(join(tmpdir(), "warden-compose-"));
    try {
      const run = () => {
        execFileSync("sh", ["-ec", (composeSetup ?? []).join("\n")], { cwd: dir });
        return readFileSync(join(dir, ".env"), "utf8");
      };
      const first = run();
      // Run again (a second `docker compose up`), the key stays: a new one would leave the
      // Stripe secrets already stored unreadable.
      expect(run()).toBe(first);
      const env = dotenv(first);
      const { services } = interpolated(compose, env) as typeof compose;
      const environment = services.warden?.environment as Record<string, string>;
      const config = loadConfig(environment);
      expect(config.encryptionKey?.length).toBe(32);
      expect(config.databaseUrl).toMatch(/@postgres:5432\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows the same .env line in the README, docs/deploy.md and compose.yaml's comment", () => {
    const line = composeSetup?.find((step) => step.includes(".env")) ?? "";
    expect(line).not.toBe("");
    expect(read("docs/deploy.md")).toContain(line);
    expect(read("compose.yaml")).toContain(`#   ${line}`);
  });
});

describe("the README's docker build and docker run", () => {
  const lines = readme.flat();
  const build = lines.find((line) => line.startsWith("docker build "));
  const run = lines.find((line) => line.startsWith("docker run "));

  it("run the image the build tags, on the Dockerfile's port, with DATA_DIR on a volume", () => {
    const tag = /-t (\S+) \.$/.exec(build ?? "")?.[1];
    expect(tag).toBeDefined();
    const args = run?.split(/\s+/) ?? [];
    expect(args.at(-1)).toBe(tag);
    expect(args[args.indexOf("-p") + 1]).toBe(`${loadConfig({}).port}:${all("EXPOSE")[0]}`);
    expect(args[args.indexOf("-v") + 1]).toMatch(new RegExp(`^[\\w-]+:${env.DATA_DIR}$`));
  });
});
