/**
 * The two checkouts bench:compare runs: the base (`--base <rev>`) in a git worktree under
 * os.tmpdir()/warden-bench-trees/<sha>, kept for the next comparison with the same commit, and
 * the head, this working tree as it is (uncommitted changes included) or `--head <rev>` in a
 * worktree too. A worktree borrows this checkout's node_modules when its dependencies are ones
 * this checkout has (the same lock, or every package at the same version spec), else gets its
 * own (`npm ci`); then its Prisma client and its dist/ are built, as `npm start` would.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtServer, ROOT } from "../../lib/bench-process.ts";
import { type Manifest, sharesModules } from "./dependencies.ts";

export type TreeName = "base" | "head";

export type Tree = {
  name: TreeName;
  /** What the command line named ("working tree" for the head without --head). */
  rev: string;
  sha: string;
  /** The commit and "+dirty" when the working tree differs from it. */
  label: string;
  root: string;
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] })
    .toString()
    .trim();

/** The full sha of a commit `rev` names; throws with git's words if it names none. */
export function resolveSha(rev: string): string {
  try {
    return git(ROOT, "rev-parse", "--verify", "--quiet", `${rev}^{commit}`);
  } catch {
    throw new Error(`"${rev}" names no commit in ${ROOT}`);
  }
}

/** Runs a command in `cwd` with its output on stderr; throws if it fails. */
function run(cwd: string, command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd} (exit ${result.status})`);
}

const readManifest = (root: string) => ({
  manifest: JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest,
  lock: readFileSync(join(root, "package-lock.json"), "utf8"),
});

/** The worktree of `sha`, made (or found from an earlier run), its modules and dist/ ready. */
async function worktree(name: TreeName, rev: string, sha: string): Promise<Tree> {
  const dir = join(tmpdir(), "warden-bench-trees", sha);
  const short = sha.slice(0, 7);
  const present = existsSync(join(dir, ".git")) && git(dir, "rev-parse", "HEAD") === sha;
  if (present) console.error(`${name} ${short}: reusing the worktree ${dir}`);
  else {
    console.error(`${name} ${short}: git worktree add ${dir}`);
    git(ROOT, "worktree", "prune");
    rmSync(dir, { recursive: true, force: true });
    await mkdir(join(tmpdir(), "warden-bench-trees"), { recursive: true });
    git(ROOT, "worktree", "add", "--detach", dir, sha);
  }
  // lstat: a link left dangling is still there (and would refuse a new one).
  if (!lstatSync(join(dir, "node_modules"), { throwIfNoEntry: false })) {
    if (sharesModules(readManifest(dir), readManifest(ROOT))) {
      console.error(`${name} ${short}: its dependencies are this checkout's: node_modules linked`);
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    } else {
      console.error(`${name} ${short}: dependencies differ from this checkout's: npm ci`);
      run(dir, "npm", ["ci"]);
    }
  }
  console.error(`${name} ${short}: npm run db:generate`);
  run(dir, "npm", ["run", "--silent", "db:generate"]);
  return built({ name, rev, sha, label: short, root: dir });
}

/** The tree once its dist/server/main.js is up to date; a tree that cannot be built is no use. */
function built(tree: Tree): Tree {
  console.error(`${tree.name} ${tree.label}: building dist/ (scripts/ensure-build.mjs)`);
  if (!builtServer(tree.root))
    throw new Error(`${tree.name}: ${tree.root}/dist/server/main.js could not be built`);
  return tree;
}

/** This working tree, as the head: its commit, "+dirty" if it has changes. */
function workingTree(): Tree {
  const sha = git(ROOT, "rev-parse", "HEAD");
  const dirty = git(ROOT, "status", "--porcelain", "--untracked-files=no") !== "";
  const label = `${sha.slice(0, 7)}${dirty ? "+dirty" : ""}`;
  return built({ name: "head", rev: "working tree", sha, label, root: ROOT });
}

/** Both trees, ready to start a server from. */
export async function prepareTrees(base: string, head: string | undefined) {
  const baseTree = await worktree("base", base, resolveSha(base));
  const headTree = head ? await worktree("head", head, resolveSha(head)) : workingTree();
  return { base: baseTree, head: headTree };
}
