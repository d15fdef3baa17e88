import { describe, expect, it } from "vitest";
import { createLocalChangeFeed } from "../../../db/change-feed.ts";
import { TOPICS } from "../../../db/change-topics.ts";
import { createEndpointCache, type Endpoint } from "./endpoint-cache.ts";

/** A cache over an in-memory table of endpoints, counting the lookups that reach the table. */
function setup(options: { maxEntries?: number } = {}) {
  const table = new Map<string, Endpoint>([
    ["ep_a", { accountId: "acct_a", webhookSecret: "whsec_a1" }],
    ["ep_b", { accountId: "acct_b", webhookSecret: "whsec_b1" }],
  ]);
  const changes = createLocalChangeFeed();
  let clock = 1_000_000;
  const lookups: string[] = [];
  let hold: Promise<void> | null = null;
  const cache = createEndpointCache({
    async lookup(endpointId) {
      lookups.push(endpointId);
      const found = table.get(endpointId) ?? null;
      if (hold) await hold;
      return found;
    },
    changes,
    now: () => new Date(clock),
    maxAgeMs: 60_000,
    ...options,
  });
  return {
    table,
    changes,
    cache,
    lookups,
    advance: (ms: number) => {
      clock += ms;
    },
    holdLookups() {
      let release = () => {};
      hold = new Promise<void>((done) => {
        release = done;
      });
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe("endpoint cache", () => {
  it("looks an endpoint up once, then answers from memory", async () => {
    const s = setup();
    for (let i = 0; i < 5; i++) {
      expect(await s.cache.get("ep_a")).toEqual({ accountId: "acct_a", webhookSecret: "whsec_a1" });
    }
    expect(s.lookups).toEqual(["ep_a"]);
  });

  it("never keeps an unknown endpoint, however many are tried", async () => {
    const s = setup();
    for (let i = 0; i < 1000; i++) expect(await s.cache.get(`ep_random_${i}`)).toBeNull();
    expect(s.cache.size()).toBe(0);
    expect(await s.cache.get("ep_random_1")).toBeNull();
    expect(s.lookups).toHaveLength(1001);
  });

  it("holds at most maxEntries endpoints, dropping the oldest", async () => {
    const s = setup({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) {
      s.table.set(`ep_${i}`, { accountId: `acct_${i}`, webhookSecret: null });
      await s.cache.get(`ep_${i}`);
    }
    expect(s.cache.size()).toBe(3);
    s.lookups.length = 0;
    await s.cache.get("ep_9");
    await s.cache.get("ep_0");
    expect(s.lookups).toEqual(["ep_0"]);
  });

  it.each([
    { change: { topic: TOPICS.settings, accountId: "acct_a" }, reloaded: ["ep_a"] },
    { change: { topic: "*", accountId: "*" }, reloaded: ["ep_a", "ep_b"] },
    { change: { topic: "policy", accountId: "acct_a" }, reloaded: [] },
    { change: { topic: TOPICS.settings, accountId: "acct_other" }, reloaded: [] },
  ])("after $change.topic/$change.accountId reloads $reloaded", async ({ change, reloaded }) => {
    const s = setup();
    await s.cache.get("ep_a");
    await s.cache.get("ep_b");
    s.table.set("ep_a", { accountId: "acct_a", webhookSecret: "whsec_a2" });
    s.lookups.length = 0;
    s.changes.publish(change);
    await s.cache.get("ep_a");
    await s.cache.get("ep_b");
    expect(s.lookups).toEqual(reloaded);
  });

  it("serves the rotated secret right after the change", async () => {
    const s = setup();
    await s.cache.get("ep_a");
    s.table.set("ep_a", { accountId: "acct_a", webhookSecret: "whsec_a2" });
    s.changes.publish({ topic: TOPICS.settings, accountId: "acct_a" });
    expect((await s.cache.get("ep_a"))?.webhookSecret).toBe("whsec_a2");
  });

  it("does not keep a load that overlapped a change", async () => {
    const s = setup();
    const release = s.holdLookups();
    const loading = s.cache.get("ep_a");
    s.changes.publish({ topic: TOPICS.settings, accountId: "acct_a" });
    release();
    await loading;
    expect(s.cache.size()).toBe(0);
  });

  it("reloads a copy older than maxAgeMs", async () => {
    const s = setup();
    await s.cache.get("ep_a");
    s.advance(59_999);
    await s.cache.get("ep_a");
    expect(s.lookups).toEqual(["ep_a"]);
    s.advance(2);
    await s.cache.get("ep_a");
    expect(s.lookups).toEqual(["ep_a", "ep_a"]);
  });
});
