import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAsnTable } from "./ip-range-table.ts";

const dir = mkdtempSync(join(tmpdir(), "warden-asn-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function table(name: string, text: string, width: 1 | 4) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return loadAsnTable(file, width);
}

describe("loadAsnTable", () => {
  const v4 = table(
    "v4.csv",
    '16777216,16777471,13335,"Cloudflare, Inc."\r\n16778240,16779263,38803,Gtelecom\r\n' +
      '16779264,16779264,64500,"The ""Quoted"" Co"\r\n16779265,16779300,64501,',
    1,
  );
  it.each([
    ["the first address of a range", [16777216], { asn: 13335, org: "Cloudflare, Inc." }],
    ["the last address of a range", [16777471], { asn: 13335, org: "Cloudflare, Inc." }],
    ["a gap between ranges", [16777472], null],
    ["below every range", [5], null],
    ["a one-address range with escaped quotes", [16779264], { asn: 64500, org: 'The "Quoted" Co' }],
    ["a last line without newline or org", [16779300], { asn: 64501, org: null }],
    ["above every range", [16779301], null],
  ])("IPv4: %s", (_name, key, expected) => {
    expect(v4.find(key)).toEqual(expected);
  });

  // 2001:db8::/32 and 2001:db9::/32 as decimal 128-bit numbers.
  const v6 = table(
    "v6.csv",
    "42540766411282592856903984951653826560,42540766490510755371168322545197776895,64496,Doc A\n" +
      "42540766490510755371168322545197776896,42540766569738917885432660138741727231,64497,Doc B\n",
    4,
  );
  it.each([
    ["the start of the first", [0x20010db8, 0, 0, 0], 64496],
    ["the end of the first", [0x20010db8, 0xffffffff, 0xffffffff, 0xffffffff], 64496],
    ["inside the second", [0x20010db9, 1, 2, 3], 64497],
    ["after both", [0x20010dba, 0, 0, 0], null],
    ["before both", [0x20010db7, 0xffffffff, 0, 0], null],
  ])("IPv6: %s", (_name, key, asn) => {
    expect(v6.find(key)?.asn ?? null).toBe(asn);
  });

  it("finds every row of a file longer than one read chunk", () => {
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `${i * 10},${i * 10 + 4},${i + 1},Org ${i}`,
    );
    const big = table("big.csv", `${rows.join("\n")}\n`, 1);
    const missed = rows.filter((_, i) => big.find([i * 10 + 2])?.asn !== i + 1);
    expect(missed).toEqual([]);
    expect(big.find([59_999 * 10 + 4])).toEqual({ asn: 60_000, org: "Org 59999" });
    expect(big.find([59_999 * 10 + 5])).toBeNull();
  });
});
