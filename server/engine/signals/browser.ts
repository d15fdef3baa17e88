/** Where the event came from, the software that sent it, and how its form was filled. */
import { requestInconsistency } from "../request-consistency.ts";
import {
  MIN_KEY_INTERVAL_SD_MS,
  MIN_TIME_TO_SUBMIT_MS,
  PERSON_POINTER_EVENTS,
  TYPED_KEYS,
} from "../rules/entropy.ts";
import { RELAY_NETWORKS } from "../rules/timezone-mismatch.ts";
import { hostOf, type Measuring } from "./measure.ts";

/** The network the event came from. */
export function networkSignals({ subject, features, add }: Measuring): void {
  const geo = features.geo;
  if (!subject.ip) return;
  if (geo?.hosting) add("hosting_network", 1, `from a hosting provider's network (AS${geo.asn})`);
  else if (geo?.asn != null && RELAY_NETWORKS.has(geo.asn)) {
    add("relay_network", 1, `from ${RELAY_NETWORKS.get(geo.asn)}'s network`);
  } else if (!geo || geo.country === null)
    add("unknown_network", 1, `address ${subject.ip} not placed in any country`);
}

/** The browser, as the collector saw it. */
export function browserSignals({ subject, features, add }: Measuring): void {
  const browser = subject.browser ?? null;
  if (!browser && !subject.deviceId) add("no_browser", 1, "no collector token and no device id");
  if (browser?.webdriver)
    add("webdriver", 1, "the browser reports it is automated (navigator.webdriver)");
  // A missing user agent says nothing here: many backends do not forward it (rule_scraping
  // may still review it); a bot's own user agent does.
  if (subject.userAgent && features.bot) add("bot_user_agent", 1, "user agent is a known bot");
  const behavior = browser?.behavior ?? null;
  if (behavior) {
    if (behavior.pointerEvents + behavior.keyEvents === 0) {
      add("no_input_events", 1, "form submitted without a pointer or key event");
    }
    const sd = behavior.keyIntervalSdMs;
    if (behavior.keyEvents >= TYPED_KEYS && sd !== null) {
      add(
        "even_typing",
        Math.max(0, 1 - sd / (4 * MIN_KEY_INTERVAL_SD_MS)),
        `keys typed with intervals varying by ${sd.toFixed(1)} ms`,
      );
    }
    const took = behavior.timeToSubmitMs;
    const byHand = behavior.pasteCount > 0 || behavior.pointerEvents >= PERSON_POINTER_EVENTS;
    if (
      took !== null &&
      took < MIN_TIME_TO_SUBMIT_MS &&
      (behavior.keyEvents >= TYPED_KEYS || !byHand)
    ) {
      add("fast_submit", 1, `form submitted ${Math.round(took)} ms after it was first touched`);
    }
  }
  const inconsistent = browser?.request ? requestInconsistency(browser.request) : null;
  if (inconsistent) add("request_inconsistent", 1, inconsistent.message);
}

/** The browser's timezone against the address's country, and the page's origin against the site's. */
export function placeSignals({ subject, policy, features, add }: Measuring): void {
  const geo = features.geo;
  if (
    subject.timezone &&
    features.timezoneFitsCountry === false &&
    !geo?.hosting &&
    !(geo?.asn != null && RELAY_NETWORKS.has(geo.asn))
  ) {
    add(
      "timezone_mismatch",
      1,
      `browser timezone ${subject.timezone} is not one of ${geo?.country ?? "?"}'s`,
    );
  }
  const page = hostOf(subject.url);
  const origin = hostOf(subject.origin);
  const allowed = new Set((policy.allowedOrigins ?? []).map(hostOf));
  if ((origin && page && origin !== page) || (origin && allowed.size > 0 && !allowed.has(origin))) {
    add("referrer_mismatch", 1, `origin ${origin} is not this site's`);
  }
}
