import { describe, expect, it } from "vitest";
import type { LinkKind } from "../../../shared/schemas/screening.ts";
import { HUB_LIMIT, LINK_CAP } from "../../engine/links.ts";
import { groupLinks, linkedAccountsOf } from "./linked-accounts.ts";
import type { LinkedScreening, LinkRow } from "./links.repository.ts";

const T = Date.parse("2026-11-20T10:00:00Z");
const MIN = 60_000;

/** A counting row of `subject` through `kind`, `ago` minutes before T. */
const row = (kind: LinkKind, subject: string, ago: number, extra: Partial<LinkRow> = {}) => ({
  kind,
  subject,
  screeningId: `${subject}-${ago}`,
  at: new Date(T - ago * MIN),
  blocked: false,
  ...extra,
});

/** `n` accounts on one identity of `kind`, a minute apart. */
const many = (kind: LinkKind, n: number, prefix = kind) =>
  Array.from({ length: n }, (_, i) => row(kind, `${prefix}-${i}`, i + 1));

describe("groupLinks", () => {
  it.each([
    {
      name: "no rows: nothing linked",
      rows: [],
      accounts: [],
      hubs: [],
    },
    {
      name: "its own account never links to itself",
      rows: [row("device", "self", 5), row("card", "self", 9)],
      accounts: [],
      hubs: [],
    },
    {
      name: "one account through two kinds is one account, through both",
      rows: [row("card", "a", 30), row("device", "a", 10), row("device", "b", 20)],
      accounts: [
        { subject: "a", through: ["device", "card"], screenings: 2, first: 30, last: 10 },
        { subject: "b", through: ["device"], screenings: 1, first: 20, last: 20 },
      ],
      hubs: [],
    },
    {
      name: "a screening read through two kinds counts once",
      rows: [row("card", "a", 7), row("email", "a", 7)],
      accounts: [{ subject: "a", through: ["email", "card"], screenings: 1, first: 7, last: 7 }],
      hubs: [],
    },
    {
      name: `${HUB_LIMIT} accounts on an identity still link`,
      rows: many("ip", HUB_LIMIT),
      accounts: HUB_LIMIT,
      hubs: [],
    },
    {
      name: `${HUB_LIMIT + 1} accounts on an identity make it a hub, which links nobody`,
      rows: [...many("ip", HUB_LIMIT + 1), row("card", "c", 3)],
      accounts: [{ subject: "c", through: ["card"], screenings: 1, first: 3, last: 3 }],
      hubs: [{ kind: "ip", accounts: HUB_LIMIT + 1 }],
    },
    {
      name: "its own account is not counted toward a hub",
      rows: [...many("device", HUB_LIMIT), row("device", "self", 1)],
      accounts: HUB_LIMIT,
      hubs: [],
    },
    {
      name: `at most ${LINK_CAP} accounts, the newest`,
      rows: [...many("device", 20), ...many("card", 20), ...many("email", 20)],
      accounts: LINK_CAP,
      hubs: [],
    },
  ])("$name", ({ rows, accounts, hubs }) => {
    const out = groupLinks(rows, "self");
    expect(out.hubs).toEqual(hubs);
    if (typeof accounts === "number") {
      expect(out.accounts).toHaveLength(accounts);
      const lasts = out.accounts.map((a) => a.last.getTime());
      expect(lasts).toEqual([...lasts].sort((a, b) => b - a));
      return;
    }
    expect(
      out.accounts.map((a) => ({
        subject: a.subject,
        through: a.through,
        screenings: a.screeningIds.length,
        first: (T - a.first.getTime()) / MIN,
        last: (T - a.last.getTime()) / MIN,
      })),
    ).toEqual(accounts);
  });

  it("an account is blocked when any of its linked screenings was", () => {
    const out = groupLinks(
      [row("card", "a", 9), row("card", "a", 3, { blocked: true }), row("card", "b", 2)],
      null,
    );
    expect(out.accounts.map((a) => [a.subject, a.blocked])).toEqual([
      ["b", false],
      ["a", true],
    ]);
  });
});

describe("linkedAccountsOf", () => {
  const stored = (id: string, extra: Partial<LinkedScreening> = {}): LinkedScreening => ({
    id,
    userId: null,
    email: null,
    reviewStatus: null,
    label: null,
    ...extra,
  });
  const draft = groupLinks(
    [row("card", "a", 30), row("card", "a", 10), row("device", "a", 20)],
    null,
  ).accounts;

  it.each([
    {
      name: "user id and email of its newest stored screening",
      screenings: [
        stored("a-30", { userId: "old", email: "old@example.com" }),
        stored("a-20", { userId: "u_2", email: null }),
      ],
      expected: { user_id: "u_2", email: null, denied: false, fraud: false },
    },
    {
      name: "nothing stored any more (purged): no user id or email",
      screenings: [],
      expected: { user_id: null, email: null, denied: false, fraud: false },
    },
    {
      name: "denied in review",
      screenings: [stored("a-10", { reviewStatus: "denied" })],
      expected: { user_id: null, email: null, denied: true, fraud: false },
    },
    {
      name: "approved is not denied; a legitimate label is not fraud",
      screenings: [stored("a-10", { reviewStatus: "approved", label: "legitimate" })],
      expected: { user_id: null, email: null, denied: false, fraud: false },
    },
    {
      name: "labelled fraud",
      screenings: [stored("a-30", { label: "fraud" })],
      expected: { user_id: null, email: null, denied: false, fraud: true },
    },
  ])("$name", ({ screenings, expected }) => {
    expect(linkedAccountsOf(draft, screenings)).toEqual([
      {
        ...expected,
        first_seen: new Date(T - 30 * MIN).toISOString(),
        last_seen: new Date(T - 10 * MIN).toISOString(),
        screenings: 3,
        blocked: false,
        through: ["device", "card"],
      },
    ]);
  });
});
