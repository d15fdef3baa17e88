/**
 * The Dockerfile and compose.yaml, read as text and checked against the server they run:
 * no Docker engine or hadolint reaches this machine, so this is the lint CI runs. The port,
 * health path and data directory must agree with server/config.ts and server/app.ts.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
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

  it("starts the compiled server that npm start runs", () => {
    const start: string = JSON.parse(read("package.json")).scripts.start;
    const cmd = JSON.parse(all("CMD").at(-1) ?? "[]") as string[];
    expect(cmd[0]).toBe("node");
    expect(start).toContain(cmd.at(-1));
    for (const flag of cmd.slice(1, -1)) expect(start).toContain(flag);
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
