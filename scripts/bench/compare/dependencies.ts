/** Whether an older tree can run on the node_modules installed for this one (trees.ts). */

export type Manifest = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/**
 * Whether a tree with `base`'s package.json and lock can run on the modules installed for
 * `head`'s: the same lock, or every package base names is in head's at the same version spec
 * (head only added packages).
 */
export function sharesModules(
  base: { manifest: Manifest; lock: string },
  head: { manifest: Manifest; lock: string },
): boolean {
  if (base.lock === head.lock) return true;
  const wanted = { ...base.manifest.dependencies, ...base.manifest.devDependencies };
  const has = { ...head.manifest.dependencies, ...head.manifest.devDependencies };
  return Object.entries(wanted).every(([name, spec]) => has[name] === spec);
}
