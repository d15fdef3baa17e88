/**
 * How a screening's linked accounts read (decision 023): one line from the summary stored when
 * it was screened, or from the list when there is none; pure, so tested as a table.
 */
import type { LinkedAccount } from "../../../../shared/schemas/review.ts";
import {
  LINK_KINDS,
  LINKED_ACCOUNTS_MAX,
  type LinkCount,
  type LinkedSummary,
  type LinkKind,
} from "../../../../shared/schemas/screening.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const LINK_KIND_NAMES: Record<LinkKind, string> = {
  device: "device",
  email: "email",
  card: "card",
  ip: "IP",
  referrer: "referrer",
};

/** "a", "a and b", "a, b and c". */
function together(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "14 accounts", "50+ accounts" at the cap, "1 account". */
function accounts(n: number): string {
  if (n >= LINKED_ACCOUNTS_MAX) return `${LINKED_ACCOUNTS_MAX}+ accounts`;
  return n === 1 ? "1 account" : `${n} accounts`;
}

/** When they appeared: all of them in the last hour, or how many in the last day and hour. */
function recency(s: LinkedSummary): string {
  const hour = s.first_seen_last_hour;
  const day = s.first_seen_last_day;
  const ofHour = hour > 0 ? ` (${hour} in the last hour)` : "";
  if (hour === s.accounts) return " first seen in the last hour";
  if (day === s.accounts) return ` first seen in the last day${ofHour}`;
  if (day > 0) return `, ${day} first seen in the last day${ofHour}`;
  return "";
}

/**
 * "Linked to 14 accounts first seen in the last hour, through card (12) and device (3); 2 of
 * them blocked, denied or labelled fraud." Null when it is linked to nobody.
 */
export function linkedSentence(s: LinkedSummary): string | null {
  if (s.accounts === 0) return null;
  const through =
    s.through.length === 1
      ? LINK_KIND_NAMES[(s.through[0] as LinkCount).kind]
      : together(s.through.map((t) => `${LINK_KIND_NAMES[t.kind]} (${t.accounts})`));
  const bad =
    s.bad === 0
      ? ""
      : s.accounts === 1
        ? "; it was blocked, denied or labelled fraud"
        : `; ${s.bad} of them blocked, denied or labelled fraud`;
  return `Linked to ${accounts(s.accounts)}${recency(s)}, through ${through}${bad}.`;
}

/** "3 min", "2 h", "4 days": how long before the screening. */
function before(ms: number): string {
  if (ms < HOUR_MS) return `${Math.max(1, Math.round(ms / 60_000))} min`;
  if (ms < DAY_MS) return `${Math.round(ms / HOUR_MS)} h`;
  const days = Math.round(ms / DAY_MS);
  return days === 1 ? "1 day" : `${days} days`;
}

/**
 * "Account first seen 3 min before this screening; its device 2 min before." Null when the
 * summary carries neither (stored before ages were kept).
 */
export function ageSentence(s: LinkedSummary, screenedAt: string): string | null {
  if (s.account_first_seen === undefined && s.device_first_seen === undefined) return null;
  const at = Date.parse(screenedAt);
  const account = s.account_first_seen
    ? `Account first seen ${before(at - Date.parse(s.account_first_seen))} before this screening`
    : "First screening of this account";
  const device = s.device_first_seen
    ? `; its device ${before(at - Date.parse(s.device_first_seen))} before`
    : "";
  return `${account}${device}.`;
}

/** "Not linked through IP (shared by 40 accounts): …"; null without hubs. */
export function hubSentence(hubs: readonly LinkCount[]): string | null {
  if (hubs.length === 0) return null;
  const which = together(
    hubs.map((h) => `${LINK_KIND_NAMES[h.kind]} (shared by ${accounts(h.accounts)})`),
  );
  return `Not linked through ${which}: shared too widely to mean one person, like a network's NAT or a shop's device.`;
}

/** A summary of the list, as of the screening's time, for screenings stored without one. */
export function summaryOfList(
  list: readonly LinkedAccount[],
  hubs: readonly LinkCount[],
  screenedAt: string,
): LinkedSummary {
  const at = Date.parse(screenedAt);
  const since = (ms: number) => list.filter((a) => Date.parse(a.first_seen) >= at - ms).length;
  return {
    accounts: list.length,
    first_seen_last_hour: since(HOUR_MS),
    first_seen_last_day: since(DAY_MS),
    bad: list.filter((a) => a.blocked || a.denied || a.fraud).length,
    through: LINK_KINDS.map((kind) => ({
      kind,
      accounts: list.filter((a) => a.through.includes(kind)).length,
    })).filter((t) => t.accounts > 0),
    hubs: [...hubs],
  };
}

/** "blocked, denied", "labelled fraud", or "-" for an account with none of them. */
export function accountStatus(a: Pick<LinkedAccount, "blocked" | "denied" | "fraud">): string {
  const marks = [a.blocked && "blocked", a.denied && "denied", a.fraud && "labelled fraud"];
  return marks.filter(Boolean).join(", ") || "-";
}

/** "card, device". */
export function formatThrough(kinds: readonly LinkKind[]): string {
  return kinds.map((kind) => LINK_KIND_NAMES[kind]).join(", ");
}
