/**
 * The identities a screened event carries, as stored for counting: each one hashed, so the
 * counting rows hold no email or IP, only what compares equal. Keyed per account (decision
 * 013): `keyed = SHA-256(accountKey ":" legacy)`, first 128 bits, where `legacy` is the
 * unkeyed SHA-256 rows were stored with before, and accountKey comes from ENCRYPTION_KEY.
 * A leaked table can then be neither joined across accounts nor reversed with a dictionary,
 * and because the keyed digest is a function of the legacy one, rows stored before keys
 * (ScreeningIdentity.keyed = false, kept up to 400 days) are still counted: probes match
 * both forms, and SQL turns a legacy digest into its keyed one where a count compares them.
 */
import { createHmac, hash } from "node:crypto";
import { IDENTITY_KINDS, type IdentityKind } from "../../../engine/counting.ts";
import type { EventSubject } from "../../../engine/types.ts";

export { IDENTITY_KINDS, type IdentityKind };

/** What one event is known by: kind → hashed value (absent when the event lacks it). */
export type Identities = {
  /** Keyed digests: what is stored. */
  values: Partial<Record<IdentityKind, string>>;
  /** The same identities' unkeyed digests, to find rows stored before keyed digests. */
  legacy: Partial<Record<IdentityKind, string>>;
  /** The end user, hashed (keyed): the merchant's user_id, else the normalized email. */
  subject: string | null;
};

/** The unkeyed digest of rows stored before keyed digests (kept for reading them). */
export function legacyDigest(kind: string, value: string): string {
  // One-shot hash: no Hash object per call (a backtest asks it for every identity of a million events).
  return hash("sha256", `${kind}\u0000${value}`, "hex").slice(0, 32);
}

/** The keyed digest of a legacy one: what SQL computes for old rows too (probes.ts). */
export function keyedFromLegacy(key: string, legacy: string): string {
  return hash("sha256", `${key}:${legacy}`, "hex").slice(0, 32);
}

/** An identity's digest under the account's key. */
export function digest(key: string, kind: string, value: string): string {
  return keyedFromLegacy(key, legacyDigest(kind, value));
}

/**
 * Each account's digest key (64 hex characters), derived from one secret (itself derived from
 * ENCRYPTION_KEY, so every instance computes the same), remembered per account.
 */
export function createDigestKeys(secret: Buffer): (accountId: string) => string {
  const keys = new Map<string, string>();
  return (accountId) => {
    let key = keys.get(accountId);
    if (key === undefined) {
      key = createHmac("sha256", secret).update(accountId).digest("hex");
      if (keys.size >= 100_000) keys.clear();
      keys.set(accountId, key);
    }
    return key;
  };
}

type Derived = {
  normalizedEmail: string | null;
  ipKey: string | null;
  subnetKey: string | null;
  /** The hosting provider's network (`AS<n>`), for an address off consumer networks. */
  networkKey?: string | null;
  /** A corporate gateway's or relay's provider (`AS<n>`): its /24s are one network. */
  gatewayKey?: string | null;
  /** The email's domain when it is no big provider's or relay's (new domains are counted). */
  domainKey?: string | null;
  /** The address does not read as a person's (email-domain.ts looksLikeAPerson). */
  madeUp?: boolean;
  disposable: boolean;
};

export function identitiesOf(subject: EventSubject, derived: Derived, key: string): Identities {
  const values: Identities["values"] = {};
  const legacy: Identities["legacy"] = {};
  const add = (kind: IdentityKind, value: string | null | undefined) => {
    if (!value) return;
    const old = legacyDigest(kind, value);
    legacy[kind] = old;
    values[kind] = keyedFromLegacy(key, old);
  };
  add("ip", derived.ipKey);
  add("subnet", derived.subnetKey);
  add("device", subject.deviceId);
  add("email", derived.normalizedEmail);
  add("card", subject.cardFingerprint);
  add("user", subject.userId);
  add("promo", subject.promoCode);
  add("referrer", subject.referrerUserId);
  add("network", derived.networkKey);
  add("domain", derived.domainKey);
  // "From this network": the /24 (IPv6 /48), or a company gateway's whole provider.
  const net = derived.gatewayKey ?? derived.subnetKey;
  if (derived.domainKey && net) add("domainNet", `${derived.domainKey}\u0000${net}`);
  // The same two for made-up addresses only: a company's people are not counted as a farm.
  if (derived.domainKey && derived.madeUp) {
    add("domainMadeUp", derived.domainKey);
    if (net) add("domainMadeUpNet", `${derived.domainKey}\u0000${net}`);
  }
  if (derived.disposable) add("disposable", "1");
  return { values, legacy, subject: values.user ?? values.email ?? null };
}
