/**
 * Which identities of a queued screening to compare with earlier events (device, card,
 * email, IP), hashed exactly as the screening stored them in ScreeningIdentity: each under
 * the account's key, and unkeyed too, for rows stored before keyed digests (decision 013;
 * the count is of distinct screenings, so a kind listed twice counts each screening once).
 * Pure.
 */
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { SharedKind } from "../../../shared/schemas/review.ts";
import { ipKeys, normalizeEmail } from "../screening/features/identity.ts";
import { keyedFromLegacy, legacyDigest } from "../screening/identities.ts";

type Stored = {
  email: string | null;
  ip: string | null;
  input: unknown;
  signals: unknown;
};

export function sharedIdentities(row: Stored, key: string): { kind: SharedKind; value: string }[] {
  const input = (row.input ?? {}) as { device_id?: string; card_fingerprint?: string };
  const signals = row.signals as CollectedSignals | null;
  const device = input.device_id ?? signals?.device_id ?? null;
  const ip = row.ip ?? signals?.collect_ip ?? null;
  const out: { kind: SharedKind; value: string }[] = [];
  const both = (kind: SharedKind, value: string) => {
    const legacy = legacyDigest(kind, value);
    out.push({ kind, value: keyedFromLegacy(key, legacy) }, { kind, value: legacy });
  };
  if (device) both("device", device);
  if (input.card_fingerprint) both("card", input.card_fingerprint);
  if (row.email) both("email", normalizeEmail(row.email));
  if (ip) {
    try {
      both("ip", ipKeys(ip).ip);
    } catch {
      // A stored address that does not parse shares nothing.
    }
  }
  return out;
}
