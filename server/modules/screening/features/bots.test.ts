import { isbot } from "isbot";
import { describe, expect, it } from "vitest";
import { isBotUserAgent } from "./bots.ts";

const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36",
];

// [agent, caught by isbot alone?]
const AUTOMATION: [string, boolean][] = [
  ["curl/8.5.0", true],
  ["Wget/1.21.4", true],
  ["python-requests/2.31.0", true],
  ["Python-urllib/3.11", true],
  ["aiohttp/3.9.1", true],
  ["Go-http-client/1.1", true],
  ["Go-http-client/2.0", true],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    true,
  ],
  ["node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", true],
  ["axios/1.6.0", true],
  ["undici", true],
  ["okhttp/4.12.0", true],
  ["Java/17.0.1", true],
  ["Apache-HttpClient/4.5.14 (Java/17.0.1)", true],
  ["PostmanRuntime/7.36.0", true],
  ["Scrapy/2.11.0 (+https://scrapy.org)", true],
  ["Deno/1.40.0", true],
  ["Bun/1.0.25", true],
  ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true],
  ["Dart/3.2 (dart:io)", false],
];

describe("isBotUserAgent", () => {
  it.each(BROWSERS)("lets a browser through: %s", (agent) => {
    expect(isBotUserAgent(agent)).toBe(false);
  });

  it.each(AUTOMATION)("flags automation: %s", (agent) => {
    expect(isBotUserAgent(agent)).toBe(true);
  });

  // Documents why bots.ts has its own pattern: if isbot learns these, the extra can go.
  it.each(AUTOMATION)("isbot alone on %s is %s", (agent, caught) => {
    expect(isbot(agent)).toBe(caught);
  });

  it.each(["", "   "])("does not call an empty agent a bot: %j", (agent) => {
    expect(isBotUserAgent(agent)).toBe(false);
  });
});
