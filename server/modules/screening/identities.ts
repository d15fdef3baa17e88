/**
 * The identities a screened event carries, as stored for counting: each one hashed (SHA-256,
 * first 128 bits) so the counting rows hold no email or IP, only what compares equal.
 */
import { hash } from "node:crypto";
import type { EventSubject } from "../../engine/types.ts";

export const IDENTITY_KINDS = [
  "ip",
  "subnet",
  "device",
  "email",
  "card",
  "user",
  "promo",
  "disposable",
] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** What one event is known by: kind → hashed value (absent when the event lacks it). */
export type Identities = {
  values: Partial<Record<IdentityKind, string>>;
  /** The end user, hashed: the merchant's user_id, else the normalized email. */
  subject: string | null;
};

export function digest(kind: string, value: string): string {
  // One-shot hash: no Hash object per call (a backtest asks it for every identity of a million events).
  return hash("sha256", `${kind}\u0000${value}`, "hex").slice(0, 32);
}

type Derived = {
  normalizedEmail: string | null;
  ipKey: string | null;
  subnetKey: string | null;
  disposable: boolean;
};

export function identitiesOf(subject: EventSubject, derived: Derived): Identities {
  const values: Identities["values"] = {};
  const add = (kind: IdentityKind, value: string | null | undefined) => {
    if (value) values[kind] = digest(kind, value);
  };
  add("ip", derived.ipKey);
  add("subnet", derived.subnetKey);
  add("device", subject.deviceId);
  add("email", derived.normalizedEmail);
  add("card", subject.cardFingerprint);
  add("user", subject.userId);
  add("promo", subject.promoCode);
  if (derived.disposable) add("disposable", "1");
  return { values, subject: values.user ?? values.email ?? null };
}
