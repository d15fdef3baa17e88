import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveTopic } from "../../../shared/schemas/live.ts";
import { type Change, createLocalChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import { AppError } from "../../lib/app-error.ts";
import type { ValidSession } from "../auth/session.service.ts";
import { createCoalescer } from "./coalesce.ts";
import { createLiveService, type LiveMember, type LiveStream } from "./live.service.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A stream that remembers what it was told; it watches while its session exists. */
function page() {
  const heard: LiveTopic[] = [];
  let ended = false;
  const stream: LiveStream = {
    send: (topic) => heard.push(topic),
    end: () => {
      ended = true;
    },
    allows: (session) => session !== null,
  };
  return { stream, heard, ended: () => ended };
}

/** Sessions that exist until dropped, read as the live service reads them. */
function sessionStore(ids: string[]) {
  const live = new Set(ids);
  const reads: string[][] = [];
  return {
    reads,
    drop: (id: string) => live.delete(id),
    read: async (asked: string[]) => {
      reads.push(asked);
      return new Map(
        asked.filter((id) => live.has(id)).map((id) => [id, { id } as ValidSession] as const),
      );
    },
  };
}

const noSessions = async () => new Map<string, ValidSession>();
const member = (accountId: string, userId: string): LiveMember => ({
  accountId,
  userId,
  sessionId: `s-${userId}`,
});

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
    const live = createLiveService({ changes, sessions: noSessions });
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
    const live = createLiveService({ changes, sessions: noSessions });
    const mine = page();
    const theirs = page();
    live.open(member("acc-1", "u-1"), mine.stream);
    live.open(member("acc-2", "u-2"), theirs.stream);
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
    const live = createLiveService({ changes, sessions: noSessions });
    const mine = page();
    live.open(member("acc-1", "u-1"), mine.stream);
    changes.publish({ topic: "*", accountId: "*" });
    expect(mine.heard.sort()).toEqual(["charges", "review", "screenings"]);
  });

  it("lets a member hold 5 streams and refuses the 6th with 429 until one closes", () => {
    const live = createLiveService({ changes: createLocalChangeFeed(), sessions: noSessions });
    const one = member("acc-1", "u-1");
    const removers = Array.from({ length: 5 }, () => live.open(one, page().stream));
    let refused: unknown;
    try {
      live.open(one, page().stream);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: "You have 5 live pages open already. Close one of them to see live updates here.",
    });
    // Another member of the same account is not held back by this one.
    expect(() => live.open(member("acc-1", "u-2"), page().stream)).not.toThrow();
    // Removing twice frees one place, not two.
    removers[0]?.();
    removers[0]?.();
    expect(() => live.open(one, page().stream)).not.toThrow();
    expect(() => live.open(one, page().stream)).toThrow(AppError);
    expect(live.streamCount()).toBe(6);
  });

  it("ends every stream on close and then publishes nothing", () => {
    const changes = createLocalChangeFeed();
    const published: Change[] = [];
    changes.subscribe((change) => published.push(change));
    const live = createLiveService({ changes, sessions: noSessions });
    const one = page();
    live.open(member("acc-1", "u-1"), one.stream);
    live.close();
    expect(one.ended()).toBe(true);
    live.changed("acc-1", "screenings");
    expect(published).toEqual([]);
    expect(() => live.open(member("acc-1", "u-1"), page().stream)).toThrow(AppError);
  });

  it("reads the open streams' sessions again each second, in one read, and ends those revoked", async () => {
    const store = sessionStore(["s-u-1", "s-u-2"]);
    const live = createLiveService({ changes: createLocalChangeFeed(), sessions: store.read });
    const kept = page();
    const revoked = page();
    const twin = page();
    live.open(member("acc-1", "u-1"), kept.stream);
    live.open(member("acc-1", "u-2"), revoked.stream);
    live.open(member("acc-1", "u-2"), twin.stream);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.reads).toEqual([["s-u-1", "s-u-2"]]);
    store.drop("s-u-2");
    await vi.advanceTimersByTimeAsync(1_000);
    expect([kept.ended(), revoked.ended(), twin.ended()]).toEqual([false, true, true]);
    live.close();
  });

  it("keeps the streams when a read fails, and reads nothing while none is open", async () => {
    let failing = true;
    const store = sessionStore(["s-u-1"]);
    const warnings: string[] = [];
    const live = createLiveService({
      changes: createLocalChangeFeed(),
      sessions: (ids) => (failing ? Promise.reject(new Error("down")) : store.read(ids)),
      log: { warn: (_obj, msg) => warnings.push(msg) },
    });
    const one = page();
    const remove = live.open(member("acc-1", "u-1"), one.stream);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(one.ended()).toBe(false);
    expect(warnings).toEqual(["live streams' sessions not read again"]);
    failing = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.reads).toHaveLength(1);
    remove();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(store.reads).toHaveLength(1);
    live.close();
  });

  it("does not end a stream opened while a read was under way", async () => {
    let release: () => void = () => {};
    const live = createLiveService({
      changes: createLocalChangeFeed(),
      sessions: (ids) =>
        new Promise((resolve) => {
          release = () => resolve(new Map(ids.map((id) => [id, { id } as ValidSession])));
        }),
    });
    live.open(member("acc-1", "u-1"), page().stream);
    await vi.advanceTimersByTimeAsync(1_000);
    const late = page();
    late.stream.allows = () => false;
    live.open(member("acc-1", "u-2"), late.stream);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(late.ended()).toBe(false);
    live.close();
  });
});
