import { describe, expect, it } from "vitest";
import { rangeTooWide } from "./ip-range.ts";
import { ZAllowEntryInput } from "./schemas/allow-list.ts";

describe("rangeTooWide", () => {
  it.each([
    ["203.0.113.7", false],
    ["203.0.113.0/24", false],
    ["10.1.0.0/16", false],
    ["10.0.0.0/15", true],
    ["0.0.0.0/0", true],
    ["128.0.0.0/1", true],
    ["2001:db8::/32", false],
    ["2001:db8::/31", true],
    ["::/0", true],
    ["8000::/1", true],
    // IPv4-mapped IPv6: the block itself, ranges holding it, and ranges inside it.
    ["::ffff:0:0/96", true],
    ["::/32", true],
    ["::/80", true],
    ["::ffff:0.0.0.0/100", true],
    ["::ffff:10.1.0.0/112", false],
    ["::ffff:a01:0/111", true],
    ["::ffff:203.0.113.0/120", false],
    ["::1", false],
    ["::/96", false],
    ["2001:db8:1::/48", false],
    ["64:ff9b::/96", false],
  ])("%s too wide: %s", (value, wide) => {
    expect(rangeTooWide(value) !== null).toBe(wide);
  });

  it("is the allow-list form's message for the value field", () => {
    const result = ZAllowEntryInput.safeParse({ kind: "ip_cidr", value: "0.0.0.0/0" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["value"],
        message:
          "must not be wider than /16 for IPv4 (one entry would allow more than 65,536 addresses)",
      }),
    ]);
  });
});
