/** The account's and the device's age, and the accounts this event links to (links.ts). */
import { DAY, MINUTE } from "../counting.ts";
import { LINK_WINDOW, regularity } from "../links.ts";
import { throughText } from "../rules/farming.ts";
import { ageText, logCount, type Measuring, plural } from "./measure.ts";

/** An account first seen this long before the event is a returning customer's. */
const RETURNING = 7 * DAY;

const PHONE = /\b(iPhone|Android.+Mobile|Mobile Safari|Windows Phone)\b/;
const ACCOUNT_EVENTS = new Set(["signup", "trial_start", "promo_redemption", "referral"]);

/**
 * Age of the account and the device, from their first sighting (links.ts). Links look back
 * LINK_WINDOW (30 days): an older account quiet since then reads as not seen.
 */
export function ageSignals({ subject, features, add }: Measuring): void {
  const links = features.links ?? null;
  const now = features.now ?? null;
  if (!links || now === null || !(subject.userId || subject.email)) return;
  const first = links.accountFirstSeen;
  const age = first === null ? 0 : now - first;
  if (age < 10 * MINUTE) {
    add(
      "account_new",
      1,
      first === null
        ? `account not seen in the last ${LINK_WINDOW / DAY} days`
        : `account ${ageText(age)} old`,
    );
  } else if (age < DAY) {
    add("account_young", 1, `account ${ageText(age)} old`);
  } else if (age >= RETURNING) {
    add("returning_account", 1, `returning account, first seen ${Math.floor(age / DAY)} days ago`);
  }
  const device = links.deviceFirstSeen;
  if (subject.deviceId && (device === null || now - device < 10 * MINUTE)) {
    add(
      "device_new",
      1,
      device === null ? "device never seen before" : `device ${ageText(now - device)} old`,
    );
  }
}

/** The accounts an account's event links to: new ones, bad ones, their pace, one phone's. */
export function linkSignals({ subject, features, add }: Measuring): void {
  const links = features.links ?? null;
  if (!links || !ACCOUNT_EVENTS.has(subject.type)) return;
  const through = throughText(links);
  add(
    "linked_last_hour",
    logCount(links.firstSeenLastHour),
    `linked to ${links.firstSeenLastHour} account${plural(links.firstSeenLastHour)} first seen in the last hour ${through}`,
  );
  const day = links.firstSeenLastDay - links.firstSeenLastHour;
  add(
    "linked_last_day",
    logCount(day),
    `linked to ${day} more first seen in the last day ${through}`,
  );
  add(
    "linked_bad",
    logCount(links.bad, 2),
    `linked to ${links.bad} account${plural(links.bad)} blocked, denied or labelled fraud`,
  );
  const pace = regularity(links.recent, 5);
  if (pace !== null && pace < 0.35) {
    add(
      "linked_even_pace",
      1,
      `linked accounts appeared at an even pace (gaps vary by ${Math.round(pace * 100)}%)`,
    );
  }
  const onPhone = links.lastHourThrough.device ?? 0;
  if (subject.type === "signup" && subject.userAgent && PHONE.test(subject.userAgent)) {
    add(
      "phone_accounts",
      logCount(onPhone, 2),
      `${onPhone} other account${plural(onPhone)} made on this phone in 1 h`,
    );
  }
}
