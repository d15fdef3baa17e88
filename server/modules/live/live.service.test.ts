import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveTopic } from "../../../shared/schemas/live.ts";
import { type Change, createLocalChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import { AppError } from "../../lib/app-error.ts";
import { createCoalescer } from "./coalesce.ts";
import { createLiveService, type LiveStream } from "./live.service.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A stream that remembers what it was told. */
function page() {
  const heard: LiveTopic[] = [];
  let ended = false;
  const stream: LiveStream = {
    send: (topic) => heard.push(topic),
    end: () => {
      ended = true;
    },
  };
  return { stream, heard, ended: () => ended };
}

describe("createCoalescer", () => {
  it.each([
    // hits at these times (ms) → calls at these times, interval 250 ms
    { hits: [0], calls: [0] },
    { hits: [0, 10, 20, 30], calls: [0, 250] },
    { hits: [0, 300], calls: [0, 300] },
    { hits: [0, 100, 260], calls: [0, 250, 500] },
    { hits: [0, 249], calls: [0, 250] },
  ])("hits $hits → calls $calls", async ({ hits, calls }) => {
    const at: number[] = [];
    const start = Date.now();
    const c = createCoalescer(250, () => at.push(Date.now() - start));
    let now = 0;
    for (const hit of hits) {
      await vi.advanceTimersByTimeAsync(hit - now);
      now = hit;
      c.hit("k");
    }
    await vi.advanceTimersByTimeAsync(2000);
    expect(at).toEqual(calls);
  });

  it("turns a burst of 1,000 hits into two calls, per key", async () => {
    const calls: string[] = [];
    const c = createCoalescer(250, (key) => calls.push(key));
    for (let i = 0; i < 1000; i++) {
      c.hit("a");
      c.hit("b");
    }
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.sort()).toEqual(["a", "a", "b", "b"]);
  });

  it("keeps going when a call throws", async () => {
    const errors: unknown[] = [];
    let n = 0;
    const c = createCoalescer(
      250,
      () => {
        n++;
        throw new Error("boom");
      },
      (error) => errors.push(error),
    );
    c.hit("k");
    c.hit("k");
    await vi.advanceTimersByTimeAsync(300);
    expect(n).toBe(2);
    expect(errors).toHaveLength(2);
  });
});

describe("createLiveService", () => {
  it("publishes at most one change per account and topic per interval to the feed", async () => {
    const changes = createLocalChangeFeed();
    const published: Change[] = [];
    changes.subscribe((change) => published.push(change));
    const live = createLiveService({ changes });
    for (let i = 0; i < 1000; i++) live.changed("acc-1", "screenings");
    live.changed("acc-1", "charges");
    live.changed("acc-2", "screenings");
    expect(published).toEqual([
      { topic: TOPICS.liveScreenings, accountId: "acc-1" },
      { topic: TOPICS.liveCharges, accountId: "acc-1" },
      { topic: TOPICS.liveScreenings, accountId: "acc-2" },
    ]);
    await vi.advanceTimersByTimeAsync(300);
    // The burst's trailing change, so the last screening is not missed.
    expect(published).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1000);
    expect(published).toHaveLength(4);
  });

  it("tells only the account's own streams, coalesced, whatever instance published", async () => {
    const changes = createLocalChangeFeed();
    const live = createLiveService({ changes });
    const mine = page();
    const theirs = page();
    live.open({ accountId: "acc-1", userId: "u-1" }, mine.stream);
    live.open({ accountId: "acc-2", userId: "u-2" }, theirs.stream);
    // As if from other instances: the feed delivers their changes too.
    for (let i = 0; i < 50; i++) changes.publish({ topic: TOPICS.liveReview, accountId: "acc-1" });
    changes.publish({ topic: TOPICS.policy, accountId: "acc-1" });
    expect(mine.heard).toEqual(["review"]);
    await vi.advanceTimersByTimeAsync(300);
    expect(mine.heard).toEqual(["review", "review"]);
    expect(theirs.heard).toEqual([]);
  });

  it("tells every stream of every topic after the feed reconnected", () => {
    const changes = createLocalChangeFeed();
    const live = createLiveService({ changes });
    const mine = page();
    live.open({ accountId: "acc-1", userId: "u-1" }, mine.stream);
    changes.publish({ topic: "*", accountId: "*" });
    expect(mine.heard.sort()).toEqual(["charges", "review", "screenings"]);
  });

  it("lets a member hold 5 streams and refuses the 6th with 429 until one closes", () => {
    const live = createLiveService({ changes: createLocalChangeFeed() });
    const member = { accountId: "acc-1", userId: "u-1" };
    const removers = Array.from({ length: 5 }, () => live.open(member, page().stream));
    let refused: unknown;
    try {
      live.open(member, page().stream);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: "You have 5 live pages open already. Close one of them to see live updates here.",
    });
    // Another member of the same account is not held back by this one.
    expect(() => live.open({ accountId: "acc-1", userId: "u-2" }, page().stream)).not.toThrow();
    // Removing twice frees one place, not two.
    removers[0]?.();
    removers[0]?.();
    expect(() => live.open(member, page().stream)).not.toThrow();
    expect(() => live.open(member, page().stream)).toThrow(AppError);
    expect(live.streamCount()).toBe(6);
  });

  it("ends every stream on close and then publishes nothing", () => {
    const changes = createLocalChangeFeed();
    const published: Change[] = [];
    changes.subscribe((change) => published.push(change));
    const live = createLiveService({ changes });
    const one = page();
    live.open({ accountId: "acc-1", userId: "u-1" }, one.stream);
    live.close();
    expect(one.ended()).toBe(true);
    live.changed("acc-1", "screenings");
    expect(published).toEqual([]);
    expect(() => live.open({ accountId: "acc-1", userId: "u-1" }, page().stream)).toThrow(AppError);
  });
});
