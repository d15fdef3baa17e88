/**
 * The allow list, checked before the rules' answer is given: an event (or charge) that
 * carries a value the merchant trusts is allowed, with a reason that says which entry and
 * who added it. A block-list entry for the same value still wins. Pure: the policy carries
 * the entries in force (expired ones are not loaded).
 */
import { BlockList, isIP } from "node:net";
import { ALLOW_KIND_NAMES } from "../../shared/schemas/allow-list.ts";
import { emailDomain } from "./email-domain.ts";
import type { Allowed, AllowListEntry, Features, Policy, Subject } from "./types.ts";

const ranges = new WeakMap<AllowListEntry, BlockList | null>();

/** The entry's address or range as a BlockList, built once per loaded entry. */
function rangeOf(entry: AllowListEntry): BlockList | null {
  let list = ranges.get(entry);
  if (list === undefined) {
    const [address = "", bits] = entry.value.split("/");
    const version = isIP(address);
    list = version ? new BlockList() : null;
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
      return subject.kind === "event" && entry.value === subject.deviceId;
    case "ip_cidr":
      return subject.kind === "event" && inRange(entry, subject.ip);
  }
}

/** A block-list entry for the same value: today the block list names email providers. */
function blockedToo(entry: AllowListEntry, policy: Policy): boolean {
  return entry.kind === "email_domain" && policy.blocklist.email_providers.includes(entry.value);
}

/** "allowed: user id on allow list, added by jane@shop.example on 2026-11-25". */
export function allowedMessage(entry: AllowListEntry): string {
  return `allowed: ${ALLOW_KIND_NAMES[entry.kind]} on allow list, added by ${entry.addedBy} on ${entry.addedAt.slice(0, 10)}`;
}

/** The first allow-list entry the subject carries, unless the block list names it too. */
export function allowedBy(subject: Subject, policy: Policy, features: Features): Allowed | null {
  for (const entry of policy.allowList ?? []) {
    if (matches(entry, subject, features) && !blockedToo(entry, policy)) {
      return { kind: entry.kind, value: entry.value, message: allowedMessage(entry) };
    }
  }
  return null;
}
