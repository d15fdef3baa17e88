/**
 * The allow list, checked after the rules: an event (or charge) that carries a value the
 * merchant trusts is allowed, with a reason that says which entry and who added it. What it
 * never beats (decision 019): the block lists, the merchant's hard "no" (a live finding of a
 * blocked country or a blocked email provider), whatever the entry's kind. A device entry
 * matches only a device id the merchant's backend sent, never one the browser asserted; an
 * IP range wider than the limit (shared/ip-range.ts, stored before it) matches nothing. Pure:
 * the policy carries the entries in force (expired ones are not loaded).
 */
import { BlockList, isIP } from "node:net";
import { rangeTooWide } from "../../shared/ip-range.ts";
import { ALLOW_KIND_NAMES } from "../../shared/schemas/allow-list.ts";
import { emailDomain } from "./email-domain.ts";
import type { Allowed, AllowListEntry, Features, Policy, Reason, Subject } from "./types.ts";

const ranges = new WeakMap<AllowListEntry, BlockList | null>();

/** The entry's address or range as a BlockList, built once per loaded entry. */
function rangeOf(entry: AllowListEntry): BlockList | null {
  let list = ranges.get(entry);
  if (list === undefined) {
    const [address = "", bits] = entry.value.split("/");
    const version = isIP(address);
    list = version && !rangeTooWide(entry.value) ? new BlockList() : null;
    const family = version === 6 ? "ipv6" : "ipv4";
    if (list && bits !== undefined) list.addSubnet(address, Number(bits), family);
    else if (list) list.addAddress(address, family);
    ranges.set(entry, list);
  }
  return list;
}

function inRange(entry: AllowListEntry, ip: string | null): boolean {
  const version = ip ? isIP(ip) : 0;
  if (!ip || !version) return false;
  return rangeOf(entry)?.check(ip, version === 6 ? "ipv6" : "ipv4") ?? false;
}

function matches(entry: AllowListEntry, subject: Subject, features: Features): boolean {
  const email = subject.email?.toLowerCase() ?? null;
  switch (entry.kind) {
    case "email":
      return entry.value === email || entry.value === features.normalizedEmail;
    case "email_domain":
      return entry.value === emailDomain(email);
    case "card_fingerprint":
      return entry.value === (subject.cardFingerprint ?? null);
    case "user_id":
      return subject.kind === "event" && entry.value === subject.userId;
    case "device":
      // The browser can claim any device id: only the backend's own is trusted.
      return (
        subject.kind === "event" && !subject.deviceFromBrowser && entry.value === subject.deviceId
      );
    case "ip_cidr":
      return subject.kind === "event" && inRange(entry, subject.ip);
  }
}

/**
 * Whether a live finding comes from the block lists: a blocked country (the rule's only
 * source), or a blocked email provider (rule_email's provider finding observes the domain).
 */
export function fromBlockList(reason: Reason, policy: Policy): boolean {
  if (reason.rule === "rule_country_blocked") return true;
  return (
    reason.rule === "rule_email" &&
    typeof reason.observed === "string" &&
    policy.blocklist.email_providers.includes(reason.observed)
  );
}

/** An email-domain entry the block list names too is never in force. */
function blockedToo(entry: AllowListEntry, policy: Policy): boolean {
  return entry.kind === "email_domain" && policy.blocklist.email_providers.includes(entry.value);
}

/** "allowed: user id on allow list, added by jane@shop.example on 2026-11-25". */
export function allowedMessage(entry: AllowListEntry): string {
  return `allowed: ${ALLOW_KIND_NAMES[entry.kind]} on allow list, added by ${entry.addedBy} on ${entry.addedAt.slice(0, 10)}`;
}

/**
 * The first allow-list entry the subject carries that overrides the live `reasons`; null
 * when none does, or when a reason comes from the block lists (they win over every entry).
 */
export function allowedBy(
  subject: Subject,
  policy: Policy,
  features: Features,
  reasons: readonly Reason[],
): Allowed | null {
  if (reasons.some((reason) => fromBlockList(reason, policy))) return null;
  for (const entry of policy.allowList ?? []) {
    if (matches(entry, subject, features) && !blockedToo(entry, policy)) {
      return {
        kind: entry.kind,
        value: entry.value,
        addedBy: entry.addedBy,
        addedAt: entry.addedAt,
        message: allowedMessage(entry),
        rules: [...new Set(reasons.map((reason) => reason.rule))],
      };
    }
  }
  return null;
}
