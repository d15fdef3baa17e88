import { describe, expect, it } from "vitest";
import { slowestFirstInGroups } from "../helpers/slow-first-sequencer.ts";
import { type FileDuration, slowestFirst, slowestLines } from "../helpers/summary-reporter.ts";

const row = (file: string, seconds: number, over: Partial<FileDuration> = {}): FileDuration => ({
  file,
  project: "int",
  tests: 3,
  importSeconds: 0,
  runSeconds: seconds,
  seconds,
  ...over,
});

describe("the run's slowest files", () => {
  it("lists the slowest first, ties by file name", () => {
    const rows = [row("b.ts", 2), row("a.ts", 9), row("c.ts", 2), row("d.ts", 0.1)];
    expect(slowestFirst(rows).map((r) => r.file)).toEqual(["a.ts", "b.ts", "c.ts", "d.ts"]);
  });

  it("prints at most ten, a line each with seconds, project, file and tests", () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(`f${i}.ts`, i, { tests: i + 1 }));
    const lines = slowestLines(rows);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe("   11.0 s  int    f11.ts (12 tests)");
    expect(lines[9]).toBe("    2.0 s  int    f2.ts (3 tests)");
    expect(slowestLines([row("e.ts", 61.25, { project: "e2e" })], 3)).toEqual([
      "   61.3 s  e2e    e.ts (3 tests)",
    ]);
  });
});

describe("the order files start in", () => {
  type File = { name: string; group: number };
  const order = (files: File[], seconds: Record<string, number>) =>
    slowestFirstInGroups(
      files,
      (f) => f.group,
      (f) => seconds[f.name],
    ).map((f) => f.name);

  it("starts the slowest known files first, each within its group", () => {
    const files = [
      { name: "small", group: 0 },
      { name: "fit", group: 0 },
      { name: "new", group: 0 },
      { name: "fuzz", group: 0 },
      { name: "e2e-slow", group: 1 },
      { name: "e2e", group: 1 },
    ];
    expect(order(files, { fit: 109, fuzz: 171, small: 1, "e2e-slow": 53 })).toEqual([
      "fuzz",
      "fit",
      "small",
      "new",
      "e2e-slow",
      "e2e",
    ]);
  });

  it("keeps Vitest's order where nothing is known", () => {
    const files = ["c", "a", "b"].map((name) => ({ name, group: 0 }));
    expect(order(files, {})).toEqual(["c", "a", "b"]);
  });
});
