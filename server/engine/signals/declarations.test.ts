import { describe, expect, it } from "vitest";
import { allCounts, emptyCounts } from "../rule-counts.ts";
import { FAMILIES, SIGNAL_FAMILY, SIGNAL_KEYS, signalCounts } from "./declarations.ts";

describe("the signal declarations", () => {
  const asked = allCounts();
  const empty = emptyCounts();

  it.each(signalCounts().map((c) => [c.signal, c.name, c]))(
    "%s reads %s: a count a rule declares, so the score asks it (never a silent 0)",
    (_signal, _name, { decl }) => {
      expect(asked).toContain(decl);
      for (const kind of decl.kinds) expect(empty[decl.group], decl.group).toHaveProperty(kind);
    },
  );

  it("name a family of evidence or context for every signal", () => {
    for (const key of SIGNAL_KEYS) {
      expect([...FAMILIES, "context"]).toContain(SIGNAL_FAMILY[key]);
    }
  });
});
