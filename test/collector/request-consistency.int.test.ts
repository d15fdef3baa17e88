/**
 * The collector's own request, over real HTTP on both databases: warden.js's POST to
 * /api/v1/collect carries the browser's User-Agent, Accept-Language and client hints; they
 * are kept with the token, stored on the screening, and rule_scraping reviews a request whose
 * headers contradict its user agent. Behind a trusted proxy (TRUST_PROXY=1) X-Forwarded-Proto
 * says whether the browser reached Warden over https, where Chromium must send its hints.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowOrigins,
  collect,
  humanSignals,
  publishableKeyOf,
  SHOP,
  tokenWithHeaders,
} from "../helpers/collector.ts";
import { DB_KINDS } from "../helpers/databases.ts";
import { signedInMerchant } from "../helpers/merchants.ts";
import { type Backend, backendOf, turnOn } from "../helpers/screening.ts";
import { startTestApp, type TestApp } from "../helpers/test-app.ts";
import { withTestApp } from "../with-test-app.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const MAC_SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

/** What Chrome on Windows sends over https; `platform` is what a Linux server leaks. */
const chrome = (platform = "Windows"): Record<string, string> => ({
  "user-agent": WINDOWS_CHROME,
  "accept-language": "en-GB,en;q=0.9",
  "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  "sec-ch-ua-mobile": "?0",
  "sec-ch-ua-platform": `"${platform}"`,
  "x-forwarded-proto": "https",
});
/** A shop still on http: its pages' requests get no client hints, even to an https Warden. */
const HTTP_SHOP = "http://shop.example.com";
const HINTS = ["sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform"];
const without = (headers: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

describe.each(DB_KINDS)("the collector's own request (%s)", (kind) => {
  let t: TestApp;
  let backend: Backend;
  let pk: string;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { TRUST_PROXY: "1" } });
    const merchant = await signedInMerchant(t, `request-consistency-${kind}@example.com`);
    backend = await backendOf(t, merchant);
    pk = (await publishableKeyOf(merchant)).key;
    await allowOrigins(merchant, [SHOP, HTTP_SHOP]);
    await turnOn(merchant, "rule_scraping");
  });
  afterAll(async () => {
    await t?.close();
  });

  const screenAfter = async (headers: Record<string, string>) =>
    backend.decide({
      type: "signup",
      email: "jane.doe@example.com",
      user_agent: headers["user-agent"] ?? WINDOWS_CHROME,
      signals: await tokenWithHeaders(t, pk, headers),
    });

  it("keeps the request's headers with the token and on the screening; a real Chrome passes", async () => {
    const answer = await screenAfter(chrome());
    expect(answer).toMatchObject({ decision: "allow", reasons: [], signals: "accepted" });
    const stored = await t.prisma.screening.findUniqueOrThrow({ where: { id: answer.id } });
    expect((stored.signals as { request: unknown }).request).toEqual({
      secure: true,
      user_agent: WINDOWS_CHROME,
      accept_language: true,
      language: "en-GB",
      ch_ua: [
        { brand: "Google Chrome", version: "131" },
        { brand: "Chromium", version: "131" },
        { brand: "Not_A Brand", version: "24" },
      ],
      ch_ua_mobile: false,
      ch_ua_platform: "Windows",
    });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      "Linux client hints under a Windows user agent",
      chrome("Linux"),
      "the browser's client hints say Linux, its user agent says Windows",
    ],
    [
      "mobile ?1 under a Windows desktop user agent",
      { ...chrome(), "sec-ch-ua-mobile": "?1" },
      "the browser's client hints say mobile (sec-ch-ua-mobile ?1), its user agent says a Windows desktop",
    ],
    [
      "HeadlessChrome among the brands",
      { ...chrome(), "sec-ch-ua": '"HeadlessChrome";v="131", "Chromium";v="131"' },
      "the browser's client hints (sec-ch-ua) name HeadlessChrome, a headless browser",
    ],
    [
      "no client hints from Chrome over https",
      without(chrome(), ...HINTS),
      "the browser sent no client hints over https, its user agent says Chrome 131 (Chrome and Edge send them since version 89)",
    ],
    [
      "no Accept-Language from Chrome",
      without(chrome(), "accept-language"),
      "the browser sent no Accept-Language, its user agent says Chrome 131 (every browser sends one)",
    ],
  ])("reviews %s", async (_, headers, message) => {
    const answer = await screenAfter(headers);
    expect(answer.decision).toBe("review");
    expect(answer.reasons).toEqual([
      expect.objectContaining({ rule: "rule_scraping", action: "review", message }),
    ]);
  });

  it.each<[string, Record<string, string>]>([
    // Chromium sends no hints to an http origin: their absence says nothing there.
    ["no client hints from Chrome over http", without(chrome(), ...HINTS, "x-forwarded-proto")],
    [
      "Safari, which sends no client hints",
      {
        "user-agent": MAC_SAFARI,
        "accept-language": "fr-FR,fr;q=0.9",
        "x-forwarded-proto": "https",
      },
    ],
  ])("allows %s", async (_, headers) => {
    expect(await screenAfter(headers)).toMatchObject({ decision: "allow", reasons: [] });
  });

  it("allows no client hints from a page on http, though Warden was reached over https", async () => {
    const headers = { ...without(chrome(), ...HINTS), origin: HTTP_SHOP };
    expect(await screenAfter(headers)).toMatchObject({ decision: "allow", reasons: [] });
  });

  it("refuses a body that tries to set what the headers said (400)", async () => {
    const forged = await collect(t, pk, {
      ...humanSignals(),
      request: { secure: false, user_agent: null },
    });
    expect(forged.status).toBe(400);
    expect(JSON.stringify(forged.body.error)).toContain("request");
  });
});

describe("the collector's own request without a trusted proxy", () => {
  let t: TestApp;
  withTestApp("embedded", {}, (app) => {
    t = app;
  });

  it("ignores X-Forwarded-Proto from the client itself: no hints over plain http pass", async () => {
    const merchant = await signedInMerchant(t, "request-consistency-direct@example.com");
    const backend = await backendOf(t, merchant);
    const pk = (await publishableKeyOf(merchant)).key;
    await allowOrigins(merchant, [SHOP]);
    await turnOn(merchant, "rule_scraping");
    const answer = await backend.decide({
      type: "signup",
      user_agent: WINDOWS_CHROME,
      signals: await tokenWithHeaders(t, pk, without(chrome(), ...HINTS)),
    });
    expect(answer).toMatchObject({ decision: "allow", reasons: [] });
  });
});
