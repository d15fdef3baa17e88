import { describe, expect, it } from "vitest";
import { timezoneFitsCountry } from "./timezones.ts";

describe("timezoneFitsCountry", () => {
  it.each([
    ["the zone of the country", "Europe/Paris", "FR", true],
    ["one of several zones", "America/Denver", "US", true],
    ["a lowercase country code", "Europe/Berlin", "de", true],
    ["an old alias (Asia/Calcutta)", "Asia/Calcutta", "IN", true],
    ["the current name (Asia/Kolkata)", "Asia/Kolkata", "IN", true],
    ["an old alias (Europe/Kiev)", "Europe/Kiev", "UA", true],
    ["a US/* link", "US/Eastern", "US", true],
    ["a zone shared by neighbours", "Europe/Zurich", "LI", true],
    ["another country's zone", "Asia/Tokyo", "US", false],
    ["a neighbour's zone", "Europe/Paris", "DE", false],
    ["an alias of another country's zone", "Asia/Calcutta", "PK", false],
    ["UTC", "UTC", "US", null],
    ["Etc/UTC", "Etc/UTC", "GB", null],
    ["Etc/GMT offsets", "Etc/GMT+5", "US", null],
    ["GMT", "GMT", "GB", null],
    ["an unknown zone", "Mars/Olympus_Mons", "US", null],
    ["an empty zone", "", "US", null],
    ["an unknown country", "Europe/Paris", "XX", null],
    ["an empty country", "Europe/Paris", "", null],
    // Names of Object.prototype's members, looked up in a plain object, used to throw (500).
    ["the zone named constructor", "constructor", "US", null],
    ["the zone named toString", "toString", "FR", null],
    ["the zone named valueOf", "valueOf", "FR", null],
    ["the zone named hasOwnProperty", "hasOwnProperty", "FR", null],
    ["the zone named __proto__", "__proto__", "FR", null],
    ["the country named constructor", "Europe/Paris", "constructor", null],
  ])("%s", (_name, timezone, country, expected) => {
    expect(timezoneFitsCountry(timezone, country)).toBe(expected);
  });
});
