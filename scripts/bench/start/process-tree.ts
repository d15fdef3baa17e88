/** Finds the node process serving HTTP among `npm start`'s descendants (Linux /proc). */
import { readdirSync, readFileSync } from "node:fs";

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

/** The command line of a process. */
export function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
}

/** The node process serving HTTP: the descendant of `root` that runs node and has no node child. */
export function serverPid(root: number): number {
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
