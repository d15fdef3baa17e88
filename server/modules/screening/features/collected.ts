/**
 * What the browser collector collected adds to a screened event: the device id, timezone,
 * origin, referrer, page and IP the browser showed, wherever the merchant's backend did not
 * send its own, and the browser's automation flag, form behaviour and the collect request's
 * own headers. A device id taken from the browser is marked so (`deviceFromBrowser`): the end
 * user chose it, so the allow list never trusts it (decision 019); the rules still count it.
 * Pure.
 */
import type { CollectedSignals, RequestSignals } from "../../../../shared/schemas/collect.ts";
import type { EventSubject, RequestHeaders } from "../../../engine/types.ts";

/** The collect request's headers in the engine's words (brand names, versions dropped). */
export function requestHeadersOf(request: RequestSignals): RequestHeaders {
  return {
    secure: request.secure,
    userAgent: request.user_agent,
    acceptLanguage: request.accept_language,
    language: request.language,
    brands: request.ch_ua?.map(({ brand }) => brand) ?? null,
    mobile: request.ch_ua_mobile,
    platform: request.ch_ua_platform,
  };
}

export function withCollected(
  subject: EventSubject,
  collected: CollectedSignals | null,
): EventSubject {
  if (!collected) return subject;
  const { behavior, request } = collected;
  return {
    ...subject,
    ip: subject.ip ?? collected.collect_ip,
    deviceId: subject.deviceId ?? collected.device_id ?? null,
    deviceFromBrowser: subject.deviceId === null && Boolean(collected.device_id),
    timezone: subject.timezone ?? collected.timezone ?? null,
    origin: subject.origin ?? collected.origin,
    referrer: subject.referrer ?? collected.referrer ?? null,
    url: subject.url ?? collected.url ?? null,
    browser: {
      webdriver: collected.webdriver,
      behavior: behavior
        ? {
            timeToSubmitMs: behavior.time_to_submit_ms,
            pointerEvents: behavior.pointer_events,
            keyEvents: behavior.key_events,
            keyIntervalSdMs: behavior.key_interval_sd_ms,
            pasteCount: behavior.paste_count,
          }
        : null,
      request: request ? requestHeadersOf(request) : null,
    },
  };
}
