import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unsupportedNodeLine } from "./node-version.mjs";

const root = join(import.meta.dirname, "../..");

describe("the Node check of npm start and npm install", () => {
  it.each([
    [
      "20.20.2",
      ">=22.13",
      "24",
      "Warden needs Node 22.13 or later (24 recommended); this is Node 20.20.2.",
    ],
    [
      "v22.12.0",
      ">=22.13",
      "24\n",
      "Warden needs Node 22.13 or later (24 recommended); this is Node 22.12.0.",
    ],
    ["18.0.0", ">=22.13.1", "", "Warden needs Node 22.13.1 or later; this is Node 18.0.0."],
    [
      "22.13.0",
      ">=22.13.1",
      "24",
      "Warden needs Node 22.13.1 or later (24 recommended); this is Node 22.13.0.",
    ],
    ["22.13.0", ">=22.13", "24", null],
    ["22.23.0", ">= 22.13", "24", null],
    ["23.0.0", ">=22.13", "24", null],
    ["24.21.0", ">=22.13", "24", null],
    ["100.0.0", ">=22.13", "24", null],
  ])("Node %s against %s (.nvmrc %j)", (current, range, nvmrc, start) => {
    const line = unsupportedNodeLine(current, range, nvmrc);
    if (start === null) expect(line).toBeNull();
    else {
      expect(line).toBe(
        `${start} With nvm: \`nvm install\` (reads .nvmrc); otherwise https://nodejs.org/en/download.`,
      );
    }
  });

  it("refuses a range it cannot read, rather than letting every Node through", () => {
    expect(() => unsupportedNodeLine("20.0.0", "^22.13 || >=24", "24")).toThrow(
      'engines.node must read ">=MAJOR.MINOR", not ^22.13 || >=24',
    );
  });

  it("reads package.json's engines and .nvmrc as they are", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const nvmrc = readFileSync(join(root, ".nvmrc"), "utf8");
    expect(unsupportedNodeLine(process.versions.node, pkg.engines.node, nvmrc)).toBeNull();
    expect(unsupportedNodeLine("20.20.2", pkg.engines.node, nvmrc)).toMatch(
      /^Warden needs Node 22\.13 or later \(24 recommended\); this is Node 20\.20\.2\. /,
    );
  });
});
