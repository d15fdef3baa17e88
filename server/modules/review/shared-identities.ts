/**
 * A stored screening's identities as ScreeningIdentity holds them: the raw value each digest
 * is taken of (the device, the card, the normalized email, the IP's key, the referrer), and
 * hashed under the account's key and unkeyed too, for rows stored before keyed digests
 * (decision 013). The review queue compares device, card, email and IP with earlier events
 * (the count is of distinct screenings, so a kind listed twice counts each screening once);
 * linked accounts (links/link-identities.ts) read the same identities. Pure.
 */
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { SharedKind } from "../../../shared/schemas/review.ts";
import { LINK_KINDS, type LinkKind } from "../../../shared/schemas/screening.ts";
import type { LinkProbe } from "../links/links.service.ts";
import {
  digest,
  ipKeys,
  keyedFromLegacy,
  legacyDigest,
  normalizeEmail,
} from "../screening/screening.entry.ts";

/** The columns of a stored screening (or a charge shaped as one) its identities come from. */
export type Stored = {
  email: string | null;
  ip: string | null;
  input: unknown;
  signals: unknown;
};

/** What each identity's digest is taken of; null where the event had none. */
export type RawIdentities = {
  device: string | null;
  card: string | null;
  /** Normalized (one inbox, one value). */
  email: string | null;
  /** The address as sent (or as the collector saw it), and the key its rows are stored by. */
  ip: { address: string; key: string } | null;
  /** The referrer's user id, on a referral. */
  referrer: string | null;
};

type Input = { device_id?: string; card_fingerprint?: string; referrer_user_id?: string };

export function rawIdentities(row: Stored): RawIdentities {
  const input = (row.input ?? {}) as Input;
  const collected = row.signals as CollectedSignals | null;
  const address = row.ip ?? collected?.collect_ip ?? null;
  return {
    device: input.device_id ?? collected?.device_id ?? null,
    card: input.card_fingerprint ?? null,
    email: row.email ? normalizeEmail(row.email) : null,
    ip: address ? ipOf(address) : null,
    referrer: input.referrer_user_id ?? null,
  };
}

function ipOf(address: string): RawIdentities["ip"] {
  try {
    return { address, key: ipKeys(address).ip };
  } catch {
    // A stored address that does not parse shares nothing.
    return null;
  }
}

/** An identity's keyed digest and its unkeyed one, as its counting rows may hold it. */
export function bothDigests(key: string, kind: string, value: string): [string, string] {
  const legacy = legacyDigest(kind, value);
  return [keyedFromLegacy(key, legacy), legacy];
}

export function sharedIdentities(row: Stored, key: string): { kind: SharedKind; value: string }[] {
  const raw = rawIdentities(row);
  const values: [SharedKind, string | null | undefined][] = [
    ["device", raw.device],
    ["card", raw.card],
    ["email", raw.email],
    ["ip", raw.ip?.key],
  ];
  return values.flatMap(([kind, value]) =>
    value ? bothDigests(key, kind, value).map((digest) => ({ kind, value: digest })) : [],
  );
}

/**
 * The identities a screening links accounts through (decision 023), both digests of each: its
 * device, normalized email, card and referrer, and its IP only off consumer networks (a home,
 * mobile, office or campus address is shared by whoever is behind its NAT).
 */
export function linkProbes(
  row: Stored,
  key: string,
  consumerNetwork: (address: string) => boolean,
): LinkProbe[] {
  const raw = rawIdentities(row);
  const values: Record<LinkKind, string | null> = {
    device: raw.device,
    email: raw.email,
    card: raw.card,
    ip: raw.ip && !consumerNetwork(raw.ip.address) ? raw.ip.key : null,
    referrer: raw.referrer,
  };
  return LINK_KINDS.flatMap((kind) => {
    const value = values[kind];
    return value ? bothDigests(key, kind, value).map((digest) => ({ kind, value: digest })) : [];
  });
}

/** A screening's own account, keyed: its user id, else its normalized email (identities.ts). */
export function subjectOf(row: { userId: string | null; email: string | null }, key: string) {
  if (row.userId) return digest(key, "user", row.userId);
  if (row.email) return digest(key, "email", normalizeEmail(row.email));
  return null;
}
