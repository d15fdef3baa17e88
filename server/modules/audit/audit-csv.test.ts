import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./audit.service.ts";
import { CSV_HEADER, csvCell, csvLine, csvRow } from "./audit-csv.ts";

describe("csvCell", () => {
  it.each([
    ["plain text stays as it is", "rules.put", "rules.put"],
    ["an email stays as it is", "ops@example.com", "ops@example.com"],
    ["nothing is an empty cell", null, ""],
    ["a comma is quoted", "a,b", '"a,b"'],
    ["a quote is doubled and quoted", 'say "hi"', '"say ""hi"""'],
    ["a line break is quoted", "one\ntwo", '"one\ntwo"'],
    ["a carriage return inside is quoted", "one\r\ntwo", '"one\r\ntwo"'],
    ["a leading space is quoted, so it survives", " x", '" x"'],
    ["= starts a formula: defused", '=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+ starts a formula: defused", "+1+1", "'+1+1"],
    ["- starts a formula: defused", "-2+3", "'-2+3"],
    ["@ starts a formula: defused", "@SUM(A1)", "'@SUM(A1)"],
    ["a leading tab is defused", "\t=1", "'\t=1"],
    ["a leading carriage return is defused", "\r=1", '"\'\r=1"'],
    ["= later in the text is harmless", "a=1", "a=1"],
    ["a formula with a comma is defused and quoted", "=1,2", '"\'=1,2"'],
  ])("%s", (_name, value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe("csvLine and csvRow", () => {
  it("ends each line with CRLF and starts with the header", () => {
    expect(csvLine(["a", "b"])).toBe("a,b\r\n");
    expect(CSV_HEADER).toBe("at,actor_kind,actor,ip,action,target,before,after,target_label\r\n");
  });

  it("writes before and after as JSON, quoted, and nothing as an empty cell", () => {
    const line = csvRow({
      id: "e1",
      at: "2026-11-20T10:00:00.000Z",
      actor_kind: "member",
      actor: "=cmd@example.com",
      ip: "127.0.0.1",
      action: "rules.put",
      target: null,
      target_label: null,
      before: { risk_level_threshold: 70 },
      after: null,
    });
    expect(line).toBe(
      '2026-11-20T10:00:00.000Z,member,\'=cmd@example.com,127.0.0.1,rules.put,,"{""risk_level_threshold"":70}",,\r\n',
    );
  });

  it("appends the target's label after the JSON, defused like any cell", () => {
    const line = csvRow({
      id: "e2",
      at: "2026-11-20T10:00:00.000Z",
      actor_kind: "member",
      actor: "lead@example.com",
      ip: null,
      action: "team.remove",
      target: "0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b",
      target_label: "=bob@example.com",
      before: null,
      after: { user_id: "0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b" },
    });
    expect(line).toBe(
      '2026-11-20T10:00:00.000Z,member,lead@example.com,,team.remove,0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b,,"{""user_id"":""0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b""}",\'=bob@example.com\r\n',
    );
  });
});

describe("audit cursors", () => {
  const id = "0b9d7f0e-6a55-4c7b-9d35-0b3b7b7b7b7b";
  const at = new Date("2026-11-20T10:00:00.123Z");

  it("gives back what was put in", () => {
    expect(decodeCursor(encodeCursor(at, id))).toEqual({ at, id });
  });

  it.each([
    ["not base64 of anything of ours", "nope"],
    ["an empty cursor", ""],
    ["no id", Buffer.from(`${at.toISOString()}|`).toString("base64url")],
    [
      "an id that is not an event's",
      Buffer.from(`${at.toISOString()}|x\u0000`).toString("base64url"),
    ],
    [
      "a time PostgreSQL cannot store",
      Buffer.from(`+275760-09-13T00:00:00.000Z|${id}`).toString("base64url"),
    ],
    ["a date that is not a time", Buffer.from(`2026-11-20|${id}`).toString("base64url")],
    ["a third part", Buffer.from(`${at.toISOString()}|${id}|x`).toString("base64url")],
  ])("refuses %s", (_name, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
