import { describe, expect, it } from "vitest";
import type { LinkedAccount } from "../../../../shared/schemas/review.ts";
import type { LinkedSummary } from "../../../../shared/schemas/screening.ts";
import {
  accountStatus,
  ageSentence,
  formatThrough,
  hubSentence,
  linkedSentence,
  summaryOfList,
} from "./linked-format.ts";

const summary = (s: Partial<LinkedSummary>): LinkedSummary => ({
  accounts: 0,
  first_seen_last_hour: 0,
  first_seen_last_day: 0,
  bad: 0,
  through: [],
  hubs: [],
  ...s,
});

describe("linked accounts format", () => {
  it.each([
    ["nobody", summary({}), null],
    [
      "all new in the last hour, two kinds, some bad",
      summary({
        accounts: 14,
        first_seen_last_hour: 14,
        first_seen_last_day: 14,
        bad: 2,
        through: [
          { kind: "card", accounts: 12 },
          { kind: "device", accounts: 3 },
        ],
      }),
      "Linked to 14 accounts first seen in the last hour, through card (12) and device (3); 2 of them blocked, denied or labelled fraud.",
    ],
    [
      "all in the last day, some in the last hour",
      summary({
        accounts: 3,
        first_seen_last_hour: 1,
        first_seen_last_day: 3,
        through: [{ kind: "ip", accounts: 3 }],
      }),
      "Linked to 3 accounts first seen in the last day (1 in the last hour), through IP.",
    ],
    [
      "some in the last day",
      summary({
        accounts: 5,
        first_seen_last_day: 2,
        through: [
          { kind: "email", accounts: 2 },
          { kind: "card", accounts: 2 },
          { kind: "referrer", accounts: 1 },
        ],
      }),
      "Linked to 5 accounts, 2 first seen in the last day, through email (2), card (2) and referrer (1).",
    ],
    [
      "one old account, bad",
      summary({ accounts: 1, bad: 1, through: [{ kind: "device", accounts: 1 }] }),
      "Linked to 1 account, through device; it was blocked, denied or labelled fraud.",
    ],
    [
      "at the cap",
      summary({ accounts: 50, through: [{ kind: "card", accounts: 50 }] }),
      "Linked to 50+ accounts, through card.",
    ],
  ])("%s", (_name, s, line) => {
    expect(linkedSentence(s)).toBe(line);
  });

  it.each([
    [[], null],
    [
      [{ kind: "ip", accounts: 40 }],
      "Not linked through IP (shared by 40 accounts): shared too widely to mean one person, like a network's NAT or a shop's device.",
    ],
    [
      [
        { kind: "ip", accounts: 26 },
        { kind: "device", accounts: 80 },
      ],
      "Not linked through IP (shared by 26 accounts) and device (shared by 50+ accounts): shared too widely to mean one person, like a network's NAT or a shop's device.",
    ],
  ] as const)("hubs %j", (hubs, line) => {
    expect(hubSentence(hubs)).toBe(line);
  });

  it("summarises a list as of the screening's time", () => {
    const at = "2026-11-20T10:00:00.000Z";
    const account = (minutesBefore: number, extra: Partial<LinkedAccount>): LinkedAccount => ({
      user_id: null,
      email: null,
      first_seen: new Date(Date.parse(at) - minutesBefore * 60_000).toISOString(),
      last_seen: at,
      screenings: 1,
      blocked: false,
      denied: false,
      fraud: false,
      through: ["card"],
      ...extra,
    });
    const list = [
      account(30, { through: ["device", "card"] }),
      account(60, { denied: true }),
      account(61, { fraud: true }),
      account(24 * 60 + 1, { through: ["ip"], blocked: true }),
    ];
    expect(summaryOfList(list, [{ kind: "email", accounts: 30 }], at)).toEqual({
      accounts: 4,
      first_seen_last_hour: 2,
      first_seen_last_day: 3,
      bad: 3,
      through: [
        { kind: "device", accounts: 1 },
        { kind: "card", accounts: 3 },
        { kind: "ip", accounts: 1 },
      ],
      hubs: [{ kind: "email", accounts: 30 }],
    });
  });

  it.each([
    [{ blocked: false, denied: false, fraud: false }, "-"],
    [{ blocked: true, denied: false, fraud: false }, "blocked"],
    [{ blocked: true, denied: true, fraud: true }, "blocked, denied, labelled fraud"],
    [{ blocked: false, denied: false, fraud: true }, "labelled fraud"],
  ])("status %j", (marks, text) => {
    expect(accountStatus(marks)).toBe(text);
  });

  it("names the kinds an account links through", () => {
    expect(formatThrough(["device", "ip", "referrer"])).toBe("device, IP, referrer");
  });
});

describe("account and device ages", () => {
  const at = "2026-11-26T12:00:00.000Z";
  it.each([
    ["stored before ages were kept", summary({}), null],
    [
      "card_farm: a new account on a device seen 2 minutes before",
      summary({ account_first_seen: null, device_first_seen: "2026-11-26T11:58:00.000Z" }),
      "First screening of this account; its device 2 min before.",
    ],
    [
      "returning_customer: an account of 40 days on a device of 3 hours",
      summary({
        account_first_seen: "2026-10-17T12:00:00.000Z",
        device_first_seen: "2026-11-26T09:00:00.000Z",
      }),
      "Account first seen 40 days before this screening; its device 3 h before.",
    ],
    [
      "no device sent",
      summary({ account_first_seen: "2026-11-26T11:00:00.000Z", device_first_seen: null }),
      "Account first seen 1 h before this screening.",
    ],
  ])("%s", (_name, s, sentence) => {
    expect(ageSentence(s, at)).toBe(sentence);
  });
});
