/**
 * Where a server's CPU went, per phase of a request, from a V8 CPU profile (`--cpu-prof`):
 * pure, no I/O. Each sample goes to one phase: its stack is walked from the leaf up and the
 * first frame a rule knows decides (the innermost known phase wins: zod under the route's
 * `parsed` is "parse and validate", `evaluate` under `judge` is "signals and score"); a
 * sample no rule knows is "other JS"; V8's (idle), (garbage collector) and (program) keep
 * their own rows.
 *
 * Rules match function names in Warden's compiled bundle (dist/server/*.js keeps them; the
 * sources when run with tsx) and packages by their path in node_modules. Names are those of
 * today's server/: a phase renamed in a tree goes to "other JS" there, which the table shows.
 *
 * The embedded database (PGlite: WebAssembly, `wasm://` frames, and @electric-sql/pglite's
 * JS) runs on the server's own thread, so its time is in the profile too. Such a sample goes
 * to the database row of the nearest caller up its stack that has one (storeAndCount →
 * "store + count statement"). PGlite runs each query from its own queue, after an await, so
 * in practice the stack holds no service frame: the only Warden code on a PGlite stack is
 * sql-runner's prepared-statement path, whose statements are the hot path's (screening: the
 * batch's one statement that stores the last batch and counts the next, and a rare legacy
 * check; webhooks: the ingest's record, read and write), so PGlite under any Warden frame goes
 * to that row. PGlite with no Warden frame at all ran a query queued through PGlite's own API:
 * Prisma's (policy loads, setup) or the embedded ANALYZE. On PostgreSQL the database's work is
 * in another process and not here: only node-postgres's JS is.
 *
 * Merged because the profile cannot split them: storing a batch and counting the next are one
 * SQL statement (decision 016), so "counts" and "write" below are their JS only (probes and
 * answers; the rows to insert) and the statement itself (its JSON parameters built in
 * storeAndCount, and on embedded the database's work, index upkeep included) is one row.
 */

/** A V8 .cpuprofile, as `--cpu-prof` writes it. */
export type CpuProfile = {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber?: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  timeDeltas: number[];
};

export type Half = "screen" | "webhooks";

type Frame = CpuProfile["nodes"][number]["callFrame"];

type Rule = {
  phase: string;
  /** Function names in Warden's own code (never a package's). */
  names?: readonly string[];
  /** A package's or Node's code, by its URL. */
  url?: RegExp;
  /** Only when the frame's caller has this name (a name used elsewhere too). */
  caller?: string;
  /** PGlite's time under this frame goes to this row (else the walk goes on up). */
  database?: string;
};

export const PHASE = {
  http: "HTTP (Fastify, Node's http)",
  json: "JSON (body parse, answer)",
  auth: "API key check",
  parse: "parse and validate",
  policy: "policy",
  features: "features (IP, email, device)",
  identities: "identities (keyed digests)",
  counts: "counts (probes, answers; JS)",
  links: "links",
  score: "signals and score",
  write: "write (rows to insert; JS)",
  statement: "store + count statement",
  events: "decision events",
  live: "live notifications",
  batching: "screening service, batching",
  signature: "Stripe signature check, event parse",
  ingest: "webhook ingest (apply to charge; JS)",
  ingestStatement: "ingest statements (record, read, write)",
  prisma: "Prisma",
  pg: "node-postgres",
  pgliteQueued: "PGlite, queued (Prisma's queries, ANALYZE)",
  logging: "logging, metrics",
  startup: "startup (modules, build, warm-up)",
  other: "other JS",
  program: "V8 and native (program)",
  gc: "garbage collector",
  idle: "idle",
} as const;

/** The rows in the order a request meets them; the tables skip the empty ones. */
export const PHASE_ORDER: readonly string[] = Object.values(PHASE);

/** Warden's code: the bundle under dist/server/, or its sources run with tsx. */
const isWarden = (url: string) => /\/(dist\/)?server\//.test(url) && !url.includes("node_modules");

/** PGlite at work: its WebAssembly, the JS↔WASM trampolines, its JS. */
const isPglite = (frame: Frame) =>
  frame.url.startsWith("wasm://") ||
  frame.url.includes("@electric-sql/pglite") ||
  /^(js-to-wasm|wasm-to-js)/.test(frame.functionName);

const RULES: readonly Rule[] = [
  { phase: PHASE.json, url: /node_modules\/(secure-json-parse|fast-json-stringify)\// },
  { phase: PHASE.json, url: /node_modules\/fastify\/lib\/reply\.js/, names: ["serialize"] },
  { phase: PHASE.parse, url: /node_modules\/zod\// },
  { phase: PHASE.parse, names: ["parsed", "inputOf", "answerOf"] },
  { phase: PHASE.auth, names: ["authenticate", "identify"] },
  { phase: PHASE.policy, names: ["load"], caller: "screen" },
  { phase: PHASE.policy, names: ["effectiveRules", "thresholdsInForce"] },
  {
    phase: PHASE.identities,
    names: ["identitiesOf", "legacyDigest", "keyedFromLegacy", "digest"],
  },
  {
    phase: PHASE.counts,
    names: [
      "probesFor",
      "countsOf",
      "countInput",
      "countedOf",
      "withUnseen",
      "withRows",
      "subjectsWithRows",
      "emptyCounts",
    ],
  },
  { phase: PHASE.links, names: ["linksFrom", "linksOf", "linkedView"] },
  { phase: PHASE.score, names: ["evaluate", "signalsOf", "scoreOf", "allowedBy"] },
  {
    phase: PHASE.features,
    names: ["screeningInputs", "featuresOf", "subjectOf", "withCollected", "collectRequestOf"],
  },
  { phase: PHASE.write, names: ["insertItem", "countingRows"] },
  {
    phase: PHASE.statement,
    names: ["storeAndCount", "storeBatch", "countBatch"],
    database: PHASE.statement,
  },
  {
    phase: PHASE.events,
    names: ["screeningEvent", "encodedEvent", "eventsOf", "eventItems", "screeningStored"],
  },
  { phase: PHASE.live, names: ["changed", "createCoalescer"] },
  { phase: PHASE.live, names: ["hit"], caller: "changed" },
  { phase: PHASE.batching, names: ["screen", "cycle", "judgeAll", "judge"] },
  { phase: PHASE.signature, url: /node_modules\/stripe\// },
  {
    phase: PHASE.ingest,
    names: [
      "receive",
      "ingest",
      "applyEvent",
      "effectOf",
      "snapshotOf",
      "mergeSnapshots",
      "planAction",
      "applyToCharge",
      "attempt",
      "readBatch",
      "writeBatch",
      "emptyTransactionRow",
      "recordEvent",
    ],
    database: PHASE.ingestStatement,
  },
  {
    phase: PHASE.prisma,
    url: /node_modules\/(@prisma\/|pglite-prisma-adapter\/)/,
    database: PHASE.prisma,
  },
  // Prisma's query compiler, bundled: its WebAssembly decoded at startup.
  { phase: PHASE.prisma, names: ["decodeBase64AsWasm", "getQueryCompilerWasmModule"] },
  { phase: PHASE.pg, url: /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-array)\// },
  {
    phase: PHASE.logging,
    url: /node_modules\/(pino|thread-stream|sonic-boom|safe-stable-stringify|prom-client)\//,
  },
  { phase: PHASE.logging, names: ["requestLogger"] },
  // Warden's route handlers (REST, Stripe): what their callees' rules do not claim.
  { phase: PHASE.http, names: ["handler"] },
  {
    phase: PHASE.http,
    url: /node_modules\/(fastify|find-my-way|@fastify\/|avvio|light-my-request|toad-cache)\/|^node:(_http|net|stream|internal\/streams|internal\/http)/,
  },
  {
    phase: PHASE.startup,
    names: ["buildApp", "warmFeatures", "migrate", "openPGlite", "copyTemplate"],
    database: PHASE.startup,
  },
  // Node's module loader; fs.cp copies the embedded database's template at startup.
  { phase: PHASE.startup, url: /^node:internal\/(modules|fs\/cp)\// },
];

/** The rule `frame` (called by `caller`) matches, if any. */
function ruleOf(frame: Frame, caller: Frame | undefined): Rule | undefined {
  const warden = isWarden(frame.url);
  return RULES.find(
    (rule) =>
      (rule.url ? rule.url.test(frame.url) : warden) &&
      (!rule.names || rule.names.includes(frame.functionName)) &&
      (!rule.caller || caller?.functionName === rule.caller),
  );
}

const SPECIAL: Record<string, string> = {
  "(idle)": PHASE.idle,
  "(garbage collector)": PHASE.gc,
  "(program)": PHASE.program,
  "(root)": PHASE.program,
};

/** The phase of one stack, leaf first. */
export function phaseOfStack(stack: readonly Frame[], half: Half): string {
  const leaf = stack[0];
  const special = leaf?.url === "" ? SPECIAL[leaf.functionName] : undefined;
  if (special) return special;
  let database = false;
  for (const [i, frame] of stack.entries()) {
    if (isPglite(frame)) {
      database = true;
      continue;
    }
    const rule = ruleOf(frame, stack[i + 1]);
    if (!rule) continue;
    if (!database) return rule.phase;
    if (rule.database) return rule.database;
  }
  if (!database) return PHASE.other;
  // PGlite under Warden code is sql-runner's prepared path: the hot path's statements.
  if (stack.some((frame) => isWarden(frame.url)))
    return half === "screen" ? PHASE.statement : PHASE.ingestStatement;
  return PHASE.pgliteQueued;
}

/** Each phase's CPU time in the profile, in microseconds (idle included, as its own row). */
export function phasesOf(profile: CpuProfile, half: Half): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const phaseOfNode = new Map<number, string>();
  const phaseOf = (id: number) => {
    let phase = phaseOfNode.get(id);
    if (phase === undefined) {
      const stack: Frame[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
        const node = byId.get(at);
        if (node) stack.push(node.callFrame);
      }
      phase = phaseOfStack(stack, half);
      phaseOfNode.set(id, phase);
    }
    return phase;
  };
  // A sample lasts until the next one (the last: until the profile's end), as DevTools counts.
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) {
    at += delta;
    times.push(at);
  }
  const spent = new Map<string, number>();
  for (const [i, id] of profile.samples.entries()) {
    const duration = (times[i + 1] ?? profile.endTime) - (times[i] as number);
    if (!(duration > 0)) continue;
    const phase = phaseOf(id);
    spent.set(phase, (spent.get(phase) ?? 0) + duration);
  }
  return spent;
}

/** Phase → CPU ms per 2xx answer (idle left out: it is not CPU). */
export function msPerAnswer(spent: Map<string, number>, answers: number): Record<string, number> {
  if (!(answers > 0)) return {};
  const out: Record<string, number> = {};
  for (const phase of PHASE_ORDER) {
    const us = spent.get(phase);
    if (us !== undefined && phase !== PHASE.idle) out[phase] = us / 1000 / answers;
  }
  return out;
}

/**
 * The Markdown table of one database's half: each phase's CPU ms per answer for the base and
 * the head (the median over the rounds) and head − base; a total row last.
 */
export function phaseTable(
  title: string,
  unit: string,
  base: Record<string, number> | null,
  head: Record<string, number> | null,
): string {
  const digits = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(3));
  const lines = [
    `| ${title} | base: ms ${unit} | head: ms ${unit} | head − base |`,
    "|---|---:|---:|---:|",
  ];
  let baseTotal = 0;
  let headTotal = 0;
  for (const phase of PHASE_ORDER) {
    const b = base?.[phase];
    const h = head?.[phase];
    if (b === undefined && h === undefined) continue;
    baseTotal += b ?? 0;
    headTotal += h ?? 0;
    const difference = (h ?? 0) - (b ?? 0);
    lines.push(
      `| ${phase} | ${digits(b)} | ${digits(h)} | ${difference >= 0 ? "+" : ""}${difference.toFixed(3)} |`,
    );
  }
  const difference = headTotal - baseTotal;
  lines.push(
    `| all CPU | ${digits(base ? baseTotal : undefined)} | ${digits(head ? headTotal : undefined)} | ${difference >= 0 ? "+" : ""}${difference.toFixed(3)} |`,
  );
  return lines.join("\n");
}
