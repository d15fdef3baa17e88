/** What the Data requests page sends and shows, as tables. */
import { describe, expect, it } from "vitest";
import { EXPORT_SOURCES } from "../../../../shared/schemas/end-users.ts";
import {
  checkSelector,
  confirmsErasure,
  countRows,
  describeSelector,
  EMPTY_FORM,
  exportFileName,
  type SelectorForm,
  totalHeld,
} from "./data-request-format.ts";

const form = (fields: Partial<SelectorForm>): SelectorForm => ({ ...EMPTY_FORM, ...fields });

describe("checkSelector", () => {
  it.each([
    // Matched in any case on the server: sent as typed.
    [{ email: "Ana@Example.com" }, { email: "Ana@Example.com" }],
    [{ email: "  ana@example.com " }, { email: "ana@example.com" }],
    [{ ip: "::ffff:127.0.0.1" }, { ip: "127.0.0.1" }],
    [
      { user_id: "u_1", device_id: "d_1" },
      { user_id: "u_1", device_id: "d_1" },
    ],
    [{ email: "", user_id: "u_1" }, { user_id: "u_1" }],
    [{ card_fingerprint: "fp_1" }, { card_fingerprint: "fp_1" }],
  ])("%j → %j", (fields, selector) => {
    expect(checkSelector(form(fields))).toEqual({ ok: true, selector });
  });

  it.each([
    [{}, { email: "give at least one of email, user_id, device_id, ip, card_fingerprint" }],
    [
      { email: "   " },
      { email: "give at least one of email, user_id, device_id, ip, card_fingerprint" },
    ],
    [{ ip: "300.1.1.1" }, { ip: "must be an IPv4 or IPv6 address" }],
    [{ email: "not-an-email" }, { email: "must be an email address" }],
    [{ email: "a@b", user_id: "x".repeat(201) }, { user_id: "must be at most 200 characters" }],
  ])("%j is refused with %j", (fields, errors) => {
    expect(checkSelector(form(fields))).toEqual({ ok: false, errors });
  });
});

describe("describeSelector", () => {
  it.each([
    [{ email: "ana@example.com" }, "email ana@example.com"],
    [{ ip: "203.0.113.7", user_id: "u_1" }, "user id u_1, IP address 203.0.113.7"],
    [{ device_id: "d_1" }, "device id d_1"],
  ])("%j → %s", (selector, text) => {
    expect(describeSelector(selector)).toBe(text);
  });
});

describe("countRows and totalHeld", () => {
  const counts = {
    screenings: 3,
    charges: 1,
    labels: 0,
    allow_entries: 2,
    signal_tokens: 0,
    webhook_deliveries: 4,
    audit_events: 1,
    identities: 5,
  };

  it("lists every source once, in EXPORT_SOURCES' order, with its sentence and count", () => {
    const rows = countRows(counts);
    expect(rows.map((row) => row.source)).toEqual(Object.keys(EXPORT_SOURCES));
    expect(rows[0]).toEqual({ source: "screenings", label: EXPORT_SOURCES.screenings, count: 3 });
  });

  it("adds them up", () => {
    expect(totalHeld(counts)).toBe(16);
    expect(totalHeld(counts, ["identities"])).toBe(11);
    expect(
      totalHeld({ ...counts, ...Object.fromEntries(Object.keys(counts).map((k) => [k, 0])) }),
    ).toBe(0);
  });
});

describe("exportFileName", () => {
  it.each([
    ["2026-11-27T03:18:10.123Z", "warden-end-user-export-2026-11-27-031810.json"],
    ["2026-11-27T12:00:00+09:00", "warden-end-user-export-2026-11-27-030000.json"],
    ["not a date", "warden-end-user-export-export.json"],
  ])("%s → %s", (exportedAt, name) => {
    expect(exportFileName(exportedAt)).toBe(name);
  });
});

describe("confirmsErasure", () => {
  it.each([
    ["ERASE", true],
    [" ERASE ", true],
    ["erase", false],
    ["", false],
    ["ERASED", false],
  ])("%j → %s", (typed, ok) => {
    expect(confirmsErasure(typed)).toBe(ok);
  });
});
