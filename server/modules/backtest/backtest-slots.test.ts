/** Backtest jobs' turns: which of a line of jobs run at once, as accounts and limits vary. */
import { describe, expect, it } from "vitest";
import { createJobSlots } from "./backtest-slots.ts";

/** Asks for a turn for each account in order; the ones that got it at once, and the rest. */
async function line(maxRunning: number, accounts: string[]) {
  const slots = createJobSlots(maxRunning);
  const started: string[] = [];
  const releases = new Map<number, () => void>();
  const aborts = accounts.map(() => new AbortController());
  const turns = accounts.map((accountId, i) =>
    slots.take(accountId, aborts[i]?.signal ?? new AbortController().signal).then(
      (release) => {
        started.push(`${accountId}${i}`);
        releases.set(i, release);
      },
      () => started.push(`left ${accountId}${i}`),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { slots, started, releases, aborts, turns };
}

describe("backtest job slots", () => {
  it.each([
    [2, ["a", "b", "c"], ["a0", "b1"]],
    [2, ["a", "a", "b"], ["a0", "b2"]],
    [1, ["a", "b"], ["a0"]],
    [3, ["a", "a", "a"], ["a0"]],
    [3, ["a", "b", "a", "c"], ["a0", "b1", "c3"]],
  ])("with %i slots, of the line %j, runs %j at once", async (max, accounts, expected) => {
    const { started } = await line(max, accounts);
    expect(started).toEqual(expected);
  });

  it("gives a freed slot to the first waiting job that may run: not one of the same account", async () => {
    const { started, releases } = await line(2, ["a", "b", "a", "c"]);
    releases.get(1)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // b's slot: the next in line is a (which holds one), so c takes it.
    expect(started).toEqual(["a0", "b1", "c3"]);
    releases.get(0)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["a0", "b1", "c3", "a2"]);
  });

  it("lets a job cancelled while it waits leave the line, and frees nothing twice", async () => {
    const { slots, started, releases, aborts } = await line(1, ["a", "b", "c"]);
    aborts[1]?.abort(new Error("cancelled"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const release = releases.get(0);
    release?.();
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["a0", "left b1", "c2"]);
    expect(slots.running()).toBe(1);
  });
});
