/**
 * The shipped weights file (pure): made from a fit, versioned "default-<n>" (n goes up when
 * anything but the version changes), and compared with another for `npm run fit -- --check`.
 */
import type { Weights } from "../../../shared/score/weights.ts";

/**
 * What differs between the shipped file and a fresh fit, one line each (empty: the same).
 * Numbers are compared as written (the fit rounds them to DECIMALS); the version is not compared.
 */
export function differences(shipped: Weights, fresh: Weights): string[] {
  const out: string[] = [];
  const compare = (
    section: string,
    a: Readonly<Record<string, unknown>>,
    b: Readonly<Record<string, unknown>>,
  ) => {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const x = JSON.stringify(a[key]);
      const y = JSON.stringify(b[key]);
      if (x !== y) out.push(`${section}.${key}: shipped ${x ?? "(none)"}, fit ${y ?? "(none)"}`);
    }
  };
  compare("intercepts", shipped.intercepts, fresh.intercepts);
  compare("weights", shipped.weights, fresh.weights);
  compare("thresholds", shipped.thresholds, fresh.thresholds);
  compare("fitted", shipped.fitted, fresh.fitted);
  return out;
}

/** `fresh` under the shipped file's version if nothing else differs, else under the next one. */
export function versioned(shipped: Weights | null, fresh: Omit<Weights, "version">): Weights {
  const n = Number(/^default-(\d+)$/.exec(shipped?.version ?? "")?.[1] ?? -1);
  const candidate = { version: `default-${Math.max(0, n)}`, ...fresh };
  if (shipped && n >= 0 && differences(shipped, candidate).length === 0) return candidate;
  return { ...candidate, version: `default-${n + 1}` };
}

/** Biome's line width (biome.json): an array of plain values that fits is written on one line. */
const LINE_WIDTH = 100;

/** The file as written: two-space JSON as biome formats it, and a final newline. */
export function fileText(weights: Weights): string {
  const text = JSON.stringify(weights, null, 2).replace(
    /^( *)(.*)\[\n([^[\]{}]*?)\n *\]/gm,
    (whole, indent: string, head: string, body: string) => {
      const line = `${indent}${head}[${body
        .split(",\n")
        .map((item) => item.trim())
        .join(", ")}]`;
      return line.length <= LINE_WIDTH ? line : whole;
    },
  );
  return `${text}\n`;
}
