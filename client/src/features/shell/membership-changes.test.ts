import { describe, expect, it } from "vitest";
import { type Membership, membershipChanges, readMemberships } from "./membership-changes.ts";

const shop: Membership = { account_id: "a1", name: "Shop", role: "analyst" };
const own: Membership = { account_id: "a2", name: "bob@example.com", role: "owner" };

describe("membershipChanges", () => {
  it.each<[string, Membership[] | null, Membership[], string[]]>([
    ["nothing seen yet: no notice", null, [shop, own], []],
    ["nothing changed: no notice", [shop, own], [shop, own], []],
    ["removed from an account", [shop, own], [own], ["You are no longer a member of Shop."]],
    [
      "made the owner",
      [shop, own],
      [{ ...shop, role: "owner" }, own],
      ["You are now Owner in Shop (you were Analyst)."],
    ],
    ["joined one more: no notice (they accepted it)", [own], [shop, own], []],
    [
      "removed from two",
      [shop, own, { account_id: "a3", name: "Other", role: "viewer" }],
      [own],
      ["You are no longer a member of Shop.", "You are no longer a member of Other."],
    ],
  ])("%s", (_name, before, now, texts) => {
    expect(membershipChanges(before, now).map((c) => c.text)).toEqual(texts);
  });
});

describe("readMemberships", () => {
  it.each<[string, string | null, Membership[] | null]>([
    ["nothing stored", null, null],
    ["what was stored", JSON.stringify([shop]), [shop]],
    ["not JSON", "{", null],
    ["not a list", JSON.stringify({ shop }), null],
    ["a role that is none", JSON.stringify([{ ...shop, role: "king" }]), null],
    ["a member without a name", JSON.stringify([{ account_id: "a1", role: "owner" }]), null],
  ])("%s", (_name, stored, read) => {
    expect(readMemberships(stored)).toEqual(read);
  });
});
