/** withCollected: what the browser collected fills only what the backend did not send. */
import { describe, expect, it } from "vitest";
import type { CollectedSignals } from "../../../../shared/schemas/collect.ts";
import { event } from "../../../../test/fixtures/engine.ts";
import { withCollected } from "./collected.ts";

const collected: CollectedSignals = {
  device_id: "wd1_browserdevice000000000000",
  timezone: "Europe/Paris",
  url: "https://shop.example.com/signup",
  referrer: "https://shop.example.com/pricing",
  webdriver: false,
  behavior: {
    time_to_submit_ms: 5000,
    pointer_events: 10,
    key_events: 20,
    key_interval_sd_ms: 40,
    paste_count: 1,
  },
  origin: "https://shop.example.com",
  collect_ip: "198.51.100.4",
};

const empty = event({
  ip: null,
  deviceId: null,
  timezone: null,
  origin: null,
  referrer: null,
  url: null,
});

describe("withCollected", () => {
  it("changes nothing when nothing was collected", () => {
    expect(withCollected(empty, null)).toBe(empty);
  });

  it.each([
    ["ip", "ip", "collect_ip", "203.0.113.9"],
    ["deviceId", "device_id", "device_id", "backend-device"],
    ["timezone", "timezone", "timezone", "America/Chicago"],
    ["origin", "origin", "origin", "https://www.example.com"],
    ["referrer", "referrer", "referrer", "https://www.example.com/a"],
    ["url", "url", "url", "https://www.example.com/b"],
  ] as const)(
    "%s: the collected one when omitted, the backend's when sent",
    (field, _, from, own) => {
      expect(withCollected(empty, collected)[field]).toBe(collected[from]);
      expect(withCollected({ ...empty, [field]: own }, collected)[field]).toBe(own);
    },
  );

  it("marks a device id taken from the browser, and only that one", () => {
    expect(withCollected(empty, collected).deviceFromBrowser).toBe(true);
    expect(
      withCollected({ ...empty, deviceId: "backend-device" }, collected).deviceFromBrowser,
    ).toBe(false);
    const { device_id: _d, ...rest } = collected;
    expect(withCollected(empty, rest).deviceFromBrowser).toBe(false);
  });

  it("leaves device and timezone empty when the browser had none", () => {
    const { device_id: _d, timezone: _t, ...rest } = collected;
    const subject = withCollected(empty, rest);
    expect(subject.deviceId).toBeNull();
    expect(subject.timezone).toBeNull();
  });

  it("carries the automation flag and the behaviour in the engine's words", () => {
    expect(withCollected(empty, collected).browser).toEqual({
      webdriver: false,
      behavior: {
        timeToSubmitMs: 5000,
        pointerEvents: 10,
        keyEvents: 20,
        keyIntervalSdMs: 40,
        pasteCount: 1,
      },
      request: null,
    });
    const { behavior: _b, ...noForm } = collected;
    expect(withCollected(empty, { ...noForm, webdriver: true }).browser).toEqual({
      webdriver: true,
      behavior: null,
      request: null,
    });
  });

  it("carries what the collect request's own headers said, brand names only", () => {
    const request = {
      secure: true,
      user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0",
      accept_language: true,
      language: "fr-FR",
      ch_ua: [
        { brand: "Google Chrome", version: "131" },
        { brand: "Chromium", version: "131" },
      ],
      ch_ua_mobile: false,
      ch_ua_platform: "Linux",
    };
    expect(withCollected(empty, { ...collected, request }).browser?.request).toEqual({
      secure: true,
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0",
      acceptLanguage: true,
      language: "fr-FR",
      brands: ["Google Chrome", "Chromium"],
      mobile: false,
      platform: "Linux",
    });
    const none = { ...request, ch_ua: null, ch_ua_mobile: null, ch_ua_platform: null };
    expect(withCollected(empty, { ...collected, request: none }).browser?.request).toMatchObject({
      brands: null,
      mobile: null,
      platform: null,
    });
  });
});
