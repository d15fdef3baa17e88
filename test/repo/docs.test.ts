/**
 * The README and docs/*.md stay true to the repository: every repository path they name in
 * backticks and every relative link they make exists, and every `npm run <script>` they show
 * is a script in package.json. A path counts when its first segment is a tracked top-level
 * entry (so `data/outbox` or `dist/client`, made at run time, and URL paths are left alone);
 * from a wildcard or a `<placeholder>` on, only the folder before it must exist.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);
const trackedPaths = new Set(tracked);
const trackedDirs = new Set(
  tracked.flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
const topLevel = new Set(tracked.map((file) => file.split("/")[0]));
const exists = (path: string) =>
  path === "" || trackedPaths.has(path) || trackedDirs.has(path.replace(/\/$/, ""));

const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const scripts = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts);

/** A backticked span that reads as a path in this repository, cut before any wildcard. */
function repoPath(span: string): string | null {
  const path = span.trim().replace(/[),.:;]+$/, "");
  if (!/^[\w.-]+(\/[\w.*<>{},-]*)*$/.test(path) || !path.includes("/")) {
    return topLevel.has(path) && path.includes(".") ? path : null;
  }
  if (!topLevel.has(path.split("/")[0] ?? "")) return null;
  const parts = path.split("/");
  const wild = parts.findIndex((part) => /[*<>{}]/.test(part));
  return wild < 0 ? path : parts.slice(0, wild).join("/");
}

function mentions(doc: string) {
  const text = readFileSync(join(root, doc), "utf8");
  const paths = [...text.matchAll(/`([^`\n]+)`/g)]
    .map((m) => repoPath(m[1] ?? ""))
    .filter((path): path is string => path !== null);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? "").split("#")[0] ?? "")
    .filter((href) => href !== "" && !/^[a-z]+:/i.test(href))
    .map((href) => normalize(relative(root, resolve(root, dirname(doc), href))));
  const npmRuns = [...text.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1] ?? "");
  return { paths, links, npmRuns };
}

describe("repoPath", () => {
  it.each([
    ["server/app.ts", "server/app.ts"],
    ["test/faults/*.fault.test.ts", "test/faults"],
    ["scripts/bench-*.ts", "scripts"],
    ["docs/decisions/", "docs/decisions/"],
    ["package.json", "package.json"],
    ["data/outbox/*.eml", null],
    ["/sdk/warden.js", null],
    ["warden/client", null],
    ["npm start", null],
  ])("%s → %s", (span, path) => {
    expect(repoPath(span)).toBe(path);
  });
});

describe.each(docs)("%s", (doc) => {
  const { paths, links, npmRuns } = mentions(doc);

  it("names only paths that exist", () => {
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });

  it("links only to files that exist", () => {
    expect(links.filter((path) => !exists(path))).toEqual([]);
  });

  it("shows only npm scripts that exist", () => {
    expect(npmRuns.filter((name) => !scripts.includes(name))).toEqual([]);
  });
});

it("documents every environment variable server/config.ts reads in docs/configuration.md", () => {
  const config = readFileSync(join(root, "server/config.ts"), "utf8");
  const zEnv = config.slice(config.indexOf("const ZEnv"), config.indexOf("export type Config"));
  const names = [...zEnv.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1] ?? "");
  expect(names).toContain("PORT");
  const documented = readFileSync(join(root, "docs/configuration.md"), "utf8");
  expect(names.filter((name) => !documented.includes(`| \`${name}\` |`))).toEqual([]);
});

it("finds what it checks (README and docs name paths and link to docs)", () => {
  const all = docs.map(mentions);
  expect(all.flatMap((m) => m.paths).length).toBeGreaterThan(30);
  expect(all[0]?.links).toContain("docs/getting-started.md");
});

it("lists every module under server/modules in docs/development.md's layout", () => {
  const development = readFileSync(join(root, "docs/development.md"), "utf8");
  // The `modules/` entry of the layout: its line and the indented lines that continue it.
  const lines = development.slice(development.indexOf("## Layout")).split("\n");
  const start = lines.findIndex((line) => /^\s+modules\//.test(line));
  const end = lines.findIndex((line, i) => i > start && !/^\s{8,}\S/.test(line));
  const layout = lines.slice(start, end).join("\n");
  const modules = [
    ...new Set(
      tracked
        .filter((file) => file.startsWith("server/modules/"))
        .map((file) => file.split("/")[2] ?? ""),
    ),
  ];
  expect(modules).toContain("review");
  const named = (name: string) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(layout);
  expect(modules.filter((name) => !named(name))).toEqual([]);
});
