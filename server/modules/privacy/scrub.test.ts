import { describe, expect, it } from "vitest";
import { ERASED, matcherOf, NO_VALUES, type PersonValues, scrubJson } from "./scrub.ts";

const person = (values: Partial<PersonValues>): PersonValues => ({ ...NO_VALUES, ...values });

describe("matcherOf(...).replaceIn", () => {
  it.each([
    // [values, text, expected]
    [
      { emails: ["Erin@Example.com"] },
      "Phoned erin@example.COM: not her",
      `Phoned ${ERASED}: not her`,
    ],
    [
      { emails: ["a@b.co"] },
      "a@b.com and xa@b.co and a@b.co.uk",
      "a@b.com and xa@b.co and a@b.co.uk",
    ],
    [{ emails: ["a@b.co"] }, "(a@b.co).", `(${ERASED}).`],
    [{ userIds: ["ALICE"] }, "alice and ALICE", `alice and ${ERASED}`],
    [{ userIds: ["2"] }, "2nd signup from user 2", `2nd signup from user ${ERASED}`],
    [{ userIds: ["a"] }, "a reason about a user", `${ERASED} reason about ${ERASED} user`],
    [{ userIds: ["u.1+x(y)*"] }, "id u.1+x(y)* and u.1+x(y)*z", `id ${ERASED} and u.1+x(y)*z`],
    [{ userIds: ["%_"] }, "like %_ and x%_", `like ${ERASED} and x%_`],
    [{ ips: ["2001:db8::1"] }, "2001:db8::1:5 and 2001:db8::1", `2001:db8::1:5 and ${ERASED}`],
    [
      { ips: ["203.0.113.7"] },
      "203.0.113.77, 203.0.113.7/32, ::ffff:203.0.113.7",
      `203.0.113.77, ${ERASED}/32, ${ERASED}`,
    ],
    [{ devices: ["Ä-dev"] }, "ä-dev Ä-dev", `ä-dev ${ERASED}`],
    [{ emails: ["ÄRIN@x.io"] }, "ärin@x.io", ERASED],
    [{}, "nothing to do", "nothing to do"],
  ])("%j in %j", (values, text, expected) => {
    expect(matcherOf(person(values)).replaceIn(text)).toBe(expected);
  });
});

describe("scrubJson", () => {
  it.each([
    // A numeric user id: the JSON number at a personal key, never a count or points.
    [
      { userIds: ["2"] },
      { user_id: 2, points: 2, observed: 2, nested: [{ user_id: "2" }] },
      { user_id: ERASED, points: 2, observed: 2, nested: [{ user_id: ERASED }] },
    ],
    // Literals as ids: only where they stand at a personal key.
    [
      { userIds: ["true", "null"] },
      { user_id: true, flag: true, other: null, referrer_user_id: "null" },
      { user_id: ERASED, flag: true, other: null, referrer_user_id: ERASED },
    ],
    // Keys are never rewritten, even when they spell the value.
    [
      { userIds: ["rule_email"] },
      { rule_email: "on", user_id: "rule_email" },
      { rule_email: "on", user_id: ERASED },
    ],
    // JSON syntax in a value stays a value.
    [
      { userIds: ['{"'] },
      { user_id: '{"', message: 'saw {" twice' },
      { user_id: ERASED, message: `saw ${ERASED} twice` },
    ],
    // Warden's own codes stay whole: a user whose id is "review" or "rule_email".
    [
      { userIds: ["review", "rule_email"] },
      {
        rule: "rule_email",
        action: "review",
        message: "sent to review by rule_email",
        user_id: "review",
      },
      {
        rule: "rule_email",
        action: "review",
        message: `sent to ${ERASED} by ${ERASED}`,
        user_id: ERASED,
      },
    ],
    // An object under a code's key is still read: a label.created webhook's `label`.
    [
      { userIds: ["u_7"] },
      { data: { label: { label: "fraud", note: "u_7 disputed", subject_id: "s1" } } },
      { data: { label: { label: "fraud", note: `${ERASED} disputed`, subject_id: "s1" } } },
    ],
    // An IP at a personal key, written IPv4-mapped.
    [
      { ips: ["203.0.113.7"] },
      { ip: "::ffff:203.0.113.7", country: "NL" },
      { ip: ERASED, country: "NL" },
    ],
  ])("%j: %j", (values, doc, expected) => {
    const { value, changed } = scrubJson(doc, matcherOf(person(values)));
    expect(value).toEqual(expected);
    expect(changed).toBe(true);
  });

  it("returns the same document, unchanged, when nothing names the person", () => {
    const doc = { rule: "rule_email", message: "5th signup with acme.io", observed: 5 };
    const { value, changed } = scrubJson(doc, matcherOf(person({ userIds: ["acme"] })));
    expect(changed).toBe(false);
    expect(value).toBe(doc);
  });
});
