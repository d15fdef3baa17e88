import { describe, expect, it } from "vitest";
import { type Manifest, sharesModules } from "./dependencies.ts";

const head: Manifest = {
  dependencies: { fastify: "5.12", zod: "4.6", uqr: "^0.1.3" },
  devDependencies: { vitest: "4.1" },
};

describe("sharesModules", () => {
  it.each<[string, Manifest, string, boolean]>([
    ["the same lock, whatever the manifests say", { dependencies: { pg: "7" } }, "lock", true],
    [
      "head only added packages",
      { dependencies: { fastify: "5.12", zod: "4.6" }, devDependencies: { vitest: "4.1" } },
      "older lock",
      true,
    ],
    ["a package at another spec", { dependencies: { fastify: "5.11" } }, "older lock", false],
    ["a package head no longer has", { devDependencies: { jest: "29" } }, "older lock", false],
  ])("%s", (_, manifest, lock, expected) => {
    expect(sharesModules({ manifest, lock }, { manifest: head, lock: "lock" })).toBe(expected);
  });
});
