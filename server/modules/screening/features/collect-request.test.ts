/** collectRequestOf: what a collect request's headers say, cut to what a token may keep. */
import { describe, expect, it } from "vitest";
import { ZRequestSignals } from "../../../../shared/schemas/collect.ts";
import { brandsOf, collectRequestOf, firstLanguage } from "./collect-request.ts";

const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("collectRequestOf", () => {
  it("reads a Chrome's request", () => {
    expect(
      collectRequestOf(
        {
          "user-agent": CHROME_UA,
          "accept-language": "de-DE,de;q=0.9,en;q=0.8",
          "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
          "sec-ch-ua-mobile": "?0",
          "sec-ch-ua-platform": '"Windows"',
        },
        true,
      ),
    ).toEqual({
      secure: true,
      user_agent: CHROME_UA,
      accept_language: true,
      language: "de-DE",
      ch_ua: [
        { brand: "Google Chrome", version: "131" },
        { brand: "Chromium", version: "131" },
        { brand: "Not_A Brand", version: "24" },
      ],
      ch_ua_mobile: false,
      ch_ua_platform: "Windows",
    });
  });

  it("says null for every header not sent (a script)", () => {
    expect(collectRequestOf({ "user-agent": "python-requests/2.32.3" }, false)).toEqual({
      secure: false,
      user_agent: "python-requests/2.32.3",
      accept_language: false,
      language: null,
      ch_ua: null,
      ch_ua_mobile: null,
      ch_ua_platform: null,
    });
  });

  it.each<[string, Record<string, string | string[]>, Record<string, unknown>]>([
    ["an empty Accept-Language is none", { "accept-language": " " }, { accept_language: false }],
    [
      "Accept-Language * is sent, with no tag",
      { "accept-language": "*" },
      { accept_language: true, language: null },
    ],
    [
      "a repeated header: the first",
      { "sec-ch-ua-platform": ['"Linux"', '"Windows"'] },
      { ch_ua_platform: "Linux" },
    ],
    ["sec-ch-ua-mobile ?1", { "sec-ch-ua-mobile": "?1" }, { ch_ua_mobile: true }],
    ["sec-ch-ua-mobile junk", { "sec-ch-ua-mobile": "yes" }, { ch_ua_mobile: null }],
    ["an unquoted platform", { "sec-ch-ua-platform": "Linux" }, { ch_ua_platform: "Linux" }],
    [
      "a platform too long",
      { "sec-ch-ua-platform": `"${"x".repeat(40)}"` },
      { ch_ua_platform: null },
    ],
    ["an unreadable sec-ch-ua is sent, with no brands", { "sec-ch-ua": "junk" }, { ch_ua: [] }],
    [
      "a non-ASCII User-Agent",
      { "user-agent": "Mozilla/5.0 \u00e9" },
      { user_agent: "Mozilla/5.0 ?" },
    ],
  ])("%s", (_, headers, expected) => {
    expect(collectRequestOf(headers, true)).toMatchObject(expected);
  });

  it("keeps what a hostile client sends within the schema's caps", () => {
    const brands = [
      `"${"B".repeat(200)}";v="${"9".repeat(100)}"`,
      ...Array.from({ length: 40 }, (_, i) => `"B${i}";v="1"`),
    ];
    const request = collectRequestOf(
      {
        "user-agent": `Mozilla/5.0 ${"A".repeat(5000)}`,
        "accept-language": `${"x".repeat(5000)}`,
        "sec-ch-ua": brands.join(", "),
        "sec-ch-ua-platform": '"\u0000Linux"',
      },
      true,
    );
    expect(ZRequestSignals.safeParse(request).success).toBe(true);
    expect(request.user_agent).toHaveLength(512);
    expect(request.ch_ua).toHaveLength(10);
    expect(request.ch_ua?.[0]).toEqual({ brand: "B".repeat(64), version: "9".repeat(32) });
    expect(request.language).toBeNull();
    expect(request.ch_ua_platform).toBeNull();
  });
});

describe("brandsOf and firstLanguage", () => {
  it.each([
    ['"HeadlessChrome";v="131", "Chromium";v="131"', ["HeadlessChrome", "Chromium"]],
    ['"Not\\"A;Brand";v="99"', ['Not"A;Brand']],
    ['"Brave"', ["Brave"]],
    ["", []],
  ])("sec-ch-ua %s → %j", (value, expected) => {
    expect(brandsOf(value).map(({ brand }) => brand)).toEqual(expected);
  });

  it.each([
    ["en-US,en;q=0.9", "en-US"],
    ["de", "de"],
    ["fr-FR;q=0.8, en", "fr-FR"],
    ["zh-Hant-TW", "zh-Hant-TW"],
    ["*", null],
    ["<script>", null],
  ])("Accept-Language %s → %s", (value, expected) => {
    expect(firstLanguage(value)).toBe(expected);
  });
});
