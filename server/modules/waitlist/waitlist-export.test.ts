import { describe, expect, it } from "vitest";
import { csvField, waitlistCsvLine } from "./waitlist-export.ts";

describe("waitlist CSV", () => {
  it.each([
    ["a plain email stays bare", "owner@example.com", "owner@example.com"],
    ["a comma is quoted", "a,b@example.com", '"a,b@example.com"'],
    ["a quote is doubled inside quotes", 'a"b@example.com', '"a""b@example.com"'],
    ["a line break is quoted", "a\nb", '"a\nb"'],
    ["a formula gets an apostrophe", "=cmd|'/c calc'!a@b.co", `"'=cmd|'/c calc'!a@b.co"`],
    ["a leading plus gets an apostrophe", "+1@b.co", `"'+1@b.co"`],
    ["a leading minus gets an apostrophe", "-1@b.co", `"'-1@b.co"`],
    ["a leading at-sign gets an apostrophe", "@a@b.co", `"'@a@b.co"`],
    ["unicode passes through", "jürgen@exämple.de", "jürgen@exämple.de"],
  ])("%s", (_what, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it("writes the email and the UTC creation time, ending in CRLF", () => {
    const line = waitlistCsvLine({
      email: "owner@example.com",
      createdAt: new Date("2025-03-04T05:06:07.089Z"),
    });
    expect(line).toBe("owner@example.com,2025-03-04T05:06:07.089Z\r\n");
  });
});
