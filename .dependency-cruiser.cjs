/**
 * Import rules for `npm run lint` (and test/repo/imports.test.ts, so CI enforces them):
 * no import cycles, and no code outside the tests reaching into test/.
 * TypeScript is parsed with swc: dependency-cruiser cannot use typescript 7 yet.
 */
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
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|data)/|^server/db/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
