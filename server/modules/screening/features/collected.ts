/**
 * What the browser collector's signals add to a screened event: the device id, timezone,
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
  signals: CollectedSignals | null,
): EventSubject {
  if (!signals) return subject;
  const { behavior, request } = signals;
  return {
    ...subject,
    ip: subject.ip ?? signals.collect_ip,
    deviceId: subject.deviceId ?? signals.device_id ?? null,
    deviceFromBrowser: subject.deviceId === null && Boolean(signals.device_id),
    timezone: subject.timezone ?? signals.timezone ?? null,
    origin: subject.origin ?? signals.origin,
    referrer: subject.referrer ?? signals.referrer ?? null,
    url: subject.url ?? signals.url ?? null,
    browser: {
      webdriver: signals.webdriver,
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
