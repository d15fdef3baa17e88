import { describe, expect, it } from "vitest";
import { accountName, type Choice, distinctNames, type Naming, UNNAMED } from "./account-name.ts";

const account = (name: string, appName: string | null, owner: string | null): Naming => ({
  name,
  settings: appName === null ? null : { appName },
  members: owner ? [{ user: { email: owner } }] : [],
});

describe("accountName", () => {
  it.each([
    ["the name the owner set", account("Acme", "Shop", "ana@x.test"), "Acme"],
    ["the app name without one", account("", "Shop", "ana@x.test"), "Shop"],
    ["blank names do not count", account("  ", " ", "ana@x.test"), "ana@x.test"],
    ["the first owner's email without settings", account("", null, "ana@x.test"), "ana@x.test"],
    ["a stand-in without an owner", account("", null, null), UNNAMED],
    ["a stand-in for no account", null, UNNAMED],
  ])("%s", (_, input, expected) => {
    expect(accountName(input)).toBe(expected);
  });
});

describe("distinctNames", () => {
  const choice = (id: string, name: string, owner: string | null): Choice => ({
    account_id: id,
    name,
    owner,
  });
  it.each([
    [
      "different names stay",
      [choice("a1", "Acme", "x@t"), choice("b2", "Shop", "x@t")],
      ["Acme", "Shop"],
    ],
    [
      "a shared name gets the owner's email",
      [choice("a1", "Shop", "ana@t"), choice("b2", "Shop", "bo@t")],
      ["Shop · ana@t", "Shop · bo@t"],
    ],
    [
      "the same name and owner get the id's start",
      [choice("aaaaaaaa-1", "ana@t", "ana@t"), choice("bbbbbbbb-2", "ana@t", "ana@t")],
      ["ana@t · aaaaaaaa", "ana@t · bbbbbbbb"],
    ],
    ["one account stays as it is", [choice("a1", "Shop", null)], ["Shop"]],
  ])("%s", (_, choices, expected) => {
    const names = distinctNames(choices);
    expect(names).toEqual(expected);
    expect(new Set(names).size).toBe(names.length);
  });
});
