import { describe, expect, it } from "vitest";
import type { Blocklist } from "../../../shared/schemas/blocklist.ts";
import { DEFAULT_RULES, type Rules } from "../../../shared/schemas/rules.ts";
import { DEFAULT_TEMPLATES } from "../../../shared/schemas/templates.ts";
import { createLocalChangeFeed } from "../../db/change-feed.ts";
import { createPolicyService, policyChangeNotifier } from "./policy.service.ts";

/** In-memory settings that count their reads, standing in for the stored ones. */
function stores() {
  const rules = new Map<string, Rules>();
  let reads = 0;
  return {
    rules,
    get reads() {
      return reads;
    },
    source: {
      rules: {
        async get(accountId: string): Promise<Rules> {
          reads += 1;
          return rules.get(accountId) ?? DEFAULT_RULES;
        },
      },
      templates: { get: async () => DEFAULT_TEMPLATES },
      blocklist: { get: async (): Promise<Blocklist> => ({ countries: [], email_providers: [] }) },
      ruleSettings: { overrides: async () => ({}) },
    },
  };
}

describe("policy service", () => {
  it("loads an account's policy once and serves it from memory after that", async () => {
    const s = stores();
    const policy = createPolicyService({
      ...s.source,
      changes: createLocalChangeFeed(),
      now: () => new Date(),
    });
    await policy.load("a");
    await policy.load("a");
    await policy.load("a");
    expect(s.reads).toBe(1);
    await policy.load("b");
    expect(s.reads).toBe(2);
  });

  it("reloads an account after its settings change, and only that account", async () => {
    const s = stores();
    const changes = createLocalChangeFeed();
    const policy = createPolicyService({ ...s.source, changes, now: () => new Date() });
    const announce = policyChangeNotifier(changes);
    await policy.load("a");
    await policy.load("b");
    s.rules.set("a", { ...DEFAULT_RULES, rule_efw: true });
    announce("a");
    expect((await policy.load("a")).rules.rule_efw).toBe(true);
    await policy.load("b");
    expect(s.reads).toBe(3);
  });

  it("reloads a copy older than its maximum age, in case a change was missed", async () => {
    const s = stores();
    let clock = 0;
    const policy = createPolicyService({
      ...s.source,
      changes: createLocalChangeFeed(),
      now: () => new Date(clock),
      maxAgeMs: 1000,
    });
    await policy.load("a");
    clock = 999;
    await policy.load("a");
    expect(s.reads).toBe(1);
    clock = 1000;
    await policy.load("a");
    expect(s.reads).toBe(2);
  });

  it("does not keep a load that overlapped a change", async () => {
    const s = stores();
    const changes = createLocalChangeFeed();
    const policy = createPolicyService({ ...s.source, changes, now: () => new Date() });
    const slow = policy.load("a");
    s.rules.set("a", { ...DEFAULT_RULES, rule_email: true });
    policyChangeNotifier(changes)("a");
    await slow;
    expect((await policy.load("a")).rules.rule_email).toBe(true);
    expect(s.reads).toBe(2);
  });

  it("forgets everything when the feed says changes may have been missed", async () => {
    const s = stores();
    const changes = createLocalChangeFeed();
    const policy = createPolicyService({ ...s.source, changes, now: () => new Date() });
    await policy.load("a");
    changes.publish({ topic: "*", accountId: "*" });
    await policy.load("a");
    expect(s.reads).toBe(2);
  });

  it("builds the disposable-domain set once", () => {
    const policy = createPolicyService({
      ...stores().source,
      changes: createLocalChangeFeed(),
      now: () => new Date(),
    });
    const first = policy.features().disposableDomains;
    expect(first.has("mailinator.com")).toBe(true);
    expect(policy.features().disposableDomains).toBe(first);
  });
});
