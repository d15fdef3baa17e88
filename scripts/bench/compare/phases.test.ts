import { describe, expect, it } from "vitest";
import {
  type CpuProfile,
  msPerAnswer,
  PHASE,
  phaseOfStack,
  phasesOf,
  phaseTable,
} from "./phases.ts";

const BUNDLE = "file:///work/main/dist/server/main.js";
const PGLITE = "file:///work/main/node_modules/@electric-sql/pglite/dist/chunk-66APQTYC.js";
const ZOD = "file:///work/main/node_modules/zod/v4/core/schemas.js";

const frame = (functionName: string, url = BUNDLE) => ({ functionName, url, lineNumber: 1 });
const wasm = frame("wasm-function[923]", "wasm://wasm/022aac12");

/**
 * (root) → screen → judge → evaluate; (root) → storeAndCount → wasm; (root) → (idle);
 * (root) → handler → parsed → zod's run: four leaves, sampled 1, 2, 3 and 4 ms.
 */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 5, 7, 8] },
    { id: 2, callFrame: frame("screen"), children: [3] },
    { id: 3, callFrame: frame("judge"), children: [4] },
    { id: 4, callFrame: frame("evaluate") },
    { id: 5, callFrame: frame("storeAndCount"), children: [6] },
    { id: 6, callFrame: wasm },
    { id: 7, callFrame: frame("(idle)", "") },
    { id: 8, callFrame: frame("handler"), children: [9] },
    { id: 9, callFrame: frame("parsed"), children: [10] },
    { id: 10, callFrame: frame("inst._zod.run", ZOD) },
  ],
  startTime: 0,
  // Each sample lasts until the next: 1, 2, 3 ms, and the last until endTime (4 ms).
  samples: [4, 6, 7, 10],
  timeDeltas: [0, 1000, 2000, 3000],
  endTime: 10_000,
};

describe("phasesOf", () => {
  const spent = phasesOf(PROFILE, "screen");

  it("gives a sample to the innermost phase on its stack", () => {
    // evaluate (signals and score) is inside judge (batching) inside screen.
    expect(spent.get(PHASE.score)).toBe(1000);
    expect(spent.get(PHASE.batching)).toBeUndefined();
    // zod inside parsed inside the route's handler (HTTP).
    expect(spent.get(PHASE.parse)).toBe(4000);
    expect(spent.get(PHASE.http)).toBeUndefined();
  });

  it("gives PGlite's WebAssembly under storeAndCount to the statement's row", () => {
    expect(spent.get(PHASE.statement)).toBe(2000);
  });

  it("keeps idle on its own row, out of the time per answer", () => {
    expect(spent.get(PHASE.idle)).toBe(3000);
    const each = msPerAnswer(spent, 2);
    expect(each[PHASE.idle]).toBeUndefined();
    expect(each[PHASE.parse]).toBe(2);
  });
});

describe("phaseOfStack (leaf first)", () => {
  it.each([
    [
      "PGlite from sql-runner's prepared path (its own queue: no service frame) → the statement",
      [wasm, frame("execProtocol", PGLITE), frame("send"), frame("(root)", "")],
      "screen",
      PHASE.statement,
    ],
    [
      "the same on a webhooks server → the ingest's statements",
      [wasm, frame("execProtocol", PGLITE), frame("send"), frame("(root)", "")],
      "webhooks",
      PHASE.ingestStatement,
    ],
    [
      "PGlite with no Warden frame (Prisma's queries, queued) → its own row",
      [wasm, frame("y", PGLITE), frame("(root)", "")],
      "screen",
      PHASE.pgliteQueued,
    ],
    [
      "a name used elsewhere counts only under its caller: the policy's load under screen",
      [frame("load"), frame("screen")],
      "screen",
      PHASE.policy,
    ],
    ["no rule → other JS", [frame("somethingElse"), frame("(root)", "")], "screen", PHASE.other],
    ["the garbage collector", [frame("(garbage collector)", "")], "screen", PHASE.gc],
  ] as const)("%s", (_, stack, half, phase) => {
    expect(phaseOfStack(stack, half)).toBe(phase);
  });
});

describe("phaseTable", () => {
  it("prints the phases either tree saw, head − base, and a total", () => {
    const table = phaseTable(
      "embedded, screening",
      "a screening",
      { [PHASE.parse]: 0.1 },
      { [PHASE.parse]: 0.15, [PHASE.score]: 0.05 },
    );
    expect(table.split("\n")).toEqual([
      "| embedded, screening | base: ms a screening | head: ms a screening | head − base |",
      "|---|---:|---:|---:|",
      `| ${PHASE.parse} | 0.100 | 0.150 | +0.050 |`,
      `| ${PHASE.score} | – | 0.050 | +0.050 |`,
      "| all CPU | 0.100 | 0.200 | +0.100 |",
    ]);
  });
});
