/**
 * Import rules for `npm run lint` (and test/repo/imports.test.ts, so CI enforces them):
 * no import cycles, no code outside the tests reaching into test/, and no module reaching into
 * another module's internals.
 * TypeScript is parsed with swc: dependency-cruiser cannot use typescript 7 yet.
 *
 * A module is a folder server/modules/<name>/ (stripe's ingest, actions, import and connect
 * are one module). What another module may import from it:
 * - its services (`*.service.ts`, or a `*.types.ts` if it grows one): its public surface;
 * - its repository types, type-only: a service's dependencies name the repository it is
 *   handed; only the wiring (server/services.ts and server/wiring/) creates them.
 * Anything else (a helper, a feature extractor, an SQL file) is the module's own business.
 * Transport (tRPC, REST, webhooks) calls services only.
 */

/** Tests may reach into what they test. */
const TEST = "\\.test\\.tsx?$";
/** A module's public surface: its services and types. */
const ENTRY = "\\.(service|types)\\.ts$";

/**
 * Known exceptions, each an import of a screening internal by a module that must compute
 * exactly what screening computes, so copying the code is worse than the reach:
 * - backtest replays past events offline through screening's own input assembly and probes
 *   (screening-inputs.ts, probes.ts, identities.ts), so a replay scores as live traffic did;
 * - collector and review key a device or a person as screening does (features/identity.ts,
 *   identities.ts); privacy finds the spellings of an email that reach one inbox with the
 *   same fold the rules count by (features/identity.ts normalizeEmail).
 * To remove: screening exports these through an entry point (e.g. screening.types.ts or a
 * replay service), and this list shrinks. Nothing else may join it without a reason here.
 */
const KNOWN_FROM = "^server/modules/(backtest|collector|review|privacy)/";
const KNOWN_TO = [
  "^server/modules/screening/(screening-inputs|probes|identities)\\.ts$",
  "^server/modules/screening/features/identity\\.ts$",
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle: move what both files need into a third one that neither imports.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-code-imports-tests",
      comment:
        "Code (server, client, shared, sdk, scripts) must not import test/: put what both need in scripts/lib or shared.",
      severity: "error",
      from: { path: "^(server|client|shared|sdk|scripts|examples)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^test/" },
    },
    {
      name: "no-module-internals",
      comment:
        "A module imports another module's internals: use its service (or its types), or move what both need to a shared place (server/lib, server/db, shared).",
      severity: "error",
      from: { path: "^server/modules/([^/]+)/", pathNot: [KNOWN_FROM, TEST] },
      to: {
        path: "^server/modules/",
        pathNot: ["^server/modules/$1/", ENTRY, "\\.repository\\.ts$"],
      },
    },
    {
      name: "no-module-internals",
      comment:
        "The same rule for the modules with known exceptions (KNOWN_TO, with reasons above).",
      severity: "error",
      from: { path: KNOWN_FROM, pathNot: TEST },
      to: {
        path: "^server/modules/",
        pathNot: ["^server/modules/$1/", ENTRY, "\\.repository\\.ts$", ...KNOWN_TO],
      },
    },
    {
      name: "no-module-repository-values",
      comment:
        "A module uses another module's repository as a value: call that module's service; only the wiring (server/services.ts, server/wiring/) creates repositories (a type-only import for a dependency's type is fine).",
      severity: "error",
      from: { path: "^server/modules/([^/]+)/", pathNot: TEST },
      to: {
        path: "^server/modules/[^/]+/.*\\.repository\\.ts$",
        pathNot: "^server/modules/$1/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "transport-calls-services",
      comment:
        "Transport only adapts: a route or router calls a module's service, never its repository or helpers.",
      severity: "error",
      from: { path: "^server/transport/", pathNot: TEST },
      to: { path: "^server/modules/", pathNot: ENTRY },
    },
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|data)/|^server/db/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
