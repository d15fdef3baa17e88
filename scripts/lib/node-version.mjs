/**
 * The Node check that `npm start` and `npm install` run first (scripts/ensure-build.mjs): on a
 * Node older than `engines` allows, one line naming the Node needed and how to get it.
 * Plain JavaScript in syntax that old Nodes parse (no `??`, `?.` or newer), since it runs on them.
 */

/**
 * The line to print when `current` ("20.20.2") is older than `range` (">=22.13", the only form
 * `engines` uses), else null. `recommended` is `.nvmrc`'s content ("24"; left out when empty).
 */
export function unsupportedNodeLine(current, range, recommended) {
  const needed = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(range).trim());
  if (!needed) throw new Error(`engines.node must read ">=MAJOR.MINOR", not ${range}`);
  const want = needed.slice(1).map((part) => Number(part || 0));
  const have = String(current).replace(/^v/, "").split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) > want[i]) return null;
    if ((have[i] || 0) < want[i]) {
      const version = want[2] ? want.join(".") : `${want[0]}.${want[1]}`;
      const advice = recommended && String(recommended).trim();
      return (
        `Warden needs Node ${version} or later${advice ? ` (${advice} recommended)` : ""}; ` +
        `this is Node ${String(current).replace(/^v/, "")}. ` +
        "With nvm: `nvm install` (reads .nvmrc); otherwise https://nodejs.org/en/download."
      );
    }
  }
  return null;
}
