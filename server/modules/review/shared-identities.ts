/**
 * Which identities of a queued screening to compare with earlier events (device, card,
 * email, IP), hashed exactly as the screening stored them in ScreeningIdentity. Pure.
 */
import type { CollectedSignals } from "../../../shared/schemas/collect.ts";
import type { SharedKind } from "../../../shared/schemas/review.ts";
import { ipKeys, normalizeEmail } from "../screening/features/identity.ts";
import { digest } from "../screening/identities.ts";

type Stored = {
  email: string | null;
  ip: string | null;
  input: unknown;
  signals: unknown;
};

export function sharedIdentities(row: Stored): { kind: SharedKind; value: string }[] {
  const input = (row.input ?? {}) as { device_id?: string; card_fingerprint?: string };
  const signals = row.signals as CollectedSignals | null;
  const device = input.device_id ?? signals?.device_id ?? null;
  const ip = row.ip ?? signals?.collect_ip ?? null;
  const out: { kind: SharedKind; value: string }[] = [];
  if (device) out.push({ kind: "device", value: digest("device", device) });
  if (input.card_fingerprint) {
    out.push({ kind: "card", value: digest("card", input.card_fingerprint) });
  }
  if (row.email) out.push({ kind: "email", value: digest("email", normalizeEmail(row.email)) });
  if (ip) {
    try {
      out.push({ kind: "ip", value: digest("ip", ipKeys(ip).ip) });
    } catch {
      // A stored address that does not parse shares nothing.
    }
  }
  return out;
}
