/**
 * Import rules for `npm run lint` (and test/repo/imports.test.ts, so CI enforces them):
 * no import cycles, no code outside the tests reaching into test/, and no module reaching into
 * another module's internals.
 * TypeScript is parsed with swc: dependency-cruiser cannot use typescript 7 yet.
 *
 * A module is a folder server/modules/<name>/ (stripe's ingest, actions, import and connect
 * are one module). What another module may import from it:
 * - its services (`*.service.ts`, or a `*.types.ts` if it grows one): its public surface;
 * - its entry (`<module>.entry.ts`): pure functions others must compute exactly as it does
 *   (screening's identity digests, email and IP keys, replay inputs; decision 032);
 * - its repository types, type-only: a service's dependencies name the repository it is
 *   handed; only the wiring (server/services.ts and server/wiring/) creates them.
 * Anything else (a helper, a feature extractor, an SQL file) is the module's own business.
 * Transport (tRPC, REST, webhooks) calls services only.
 */

/** Tests may reach into what they test. */
const TEST = "\\.test\\.tsx?$";
/** What transport may call: a module's services and types. */
const SERVICE = "\\.(service|types)\\.ts$";
/** What another module may import: the same, and the module's entry of pure functions. */
const ENTRY = "\\.(service|types|entry)\\.ts$";

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
        "A module imports another module's internals: use its service (or its types or entry), or move what both need to a shared place (server/lib, server/db, shared).",
      severity: "error",
      from: { path: "^server/modules/([^/]+)/", pathNot: TEST },
      to: {
        path: "^server/modules/",
        pathNot: ["^server/modules/$1/", ENTRY, "\\.repository\\.ts$"],
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
      to: { path: "^server/modules/", pathNot: SERVICE },
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
