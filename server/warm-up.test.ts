import { describe, expect, it } from "vitest";
import { warmUpAfterListen } from "./warm-up.ts";

describe("warmUpAfterListen", () => {
  it("warms the data sets when a live key exists, on the next turn", async () => {
    let warmed = 0;
    await warmUpAfterListen(
      async () => true,
      () => warmed++,
      () => {},
    );
    expect(warmed).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(warmed).toBe(1);
  });

  it("leaves them for first use when no key is live", async () => {
    let warmed = 0;
    await warmUpAfterListen(
      async () => false,
      () => warmed++,
      () => {},
    );
    await new Promise((r) => setImmediate(r));
    expect(warmed).toBe(0);
  });

  it("does not throw when the database check fails: the listening server stays up", async () => {
    const killed = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    const warnings: unknown[] = [];
    await expect(
      warmUpAfterListen(
        () => Promise.reject(killed),
        () => {
          throw new Error("must not warm");
        },
        (error) => warnings.push(error),
      ),
    ).resolves.toBeUndefined();
    expect(warnings).toEqual([killed]);
  });
});
