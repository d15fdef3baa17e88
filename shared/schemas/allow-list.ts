/**
 * Allow lists: values a merchant trusts (an email, an email domain, a user id, an IP or CIDR
 * range, a device, a card fingerprint). An event that carries one is allowed whatever the
 * rules say, but never over the block lists; a device entry matches only the backend's device
 * id, and a range is at most a /16 (IPv6 /32): docs/decisions/019-allow-list-trust.md.
 * Entries can expire.
 */
import { z } from "zod";
import { canonicalIpOrCidr } from "../ip-address.ts";
import { rangeTooWide } from "../ip-range.ts";
import { ZNote } from "./labels.ts";
import { storableString, uuidString } from "./storable.ts";

export const ALLOW_KINDS = [
  "email",
  "email_domain",
  "user_id",
  "ip_cidr",
  "device",
  "card_fingerprint",
] as const;
export type AllowKind = (typeof ALLOW_KINDS)[number];

export const ALLOW_KIND_NAMES: Record<AllowKind, string> = {
  email: "email",
  email_domain: "email domain",
  user_id: "user id",
  ip_cidr: "IP",
  device: "device",
  card_fingerprint: "card",
};

const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** An IP address, or a CIDR range such as 203.0.113.0/24 or 2001:db8::/32. */
export function isIpOrCidr(value: string): boolean {
  const [address = "", bits, extra] = value.split("/");
  const version = z.ipv4().safeParse(address).success
    ? 4
    : z.ipv6().safeParse(address).success
      ? 6
      : 0;
  if (!version || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

const CHECKS: Record<AllowKind, [(value: string) => boolean, string]> = {
  email: [(v) => /^[^\s@]+@[^\s@]+$/.test(v), "must be an email address"],
  email_domain: [(v) => DOMAIN.test(v), "must be a lowercase domain name, such as example.com"],
  user_id: [() => true, ""],
  ip_cidr: [isIpOrCidr, "must be an IP address or a CIDR range, such as 203.0.113.0/24"],
  device: [() => true, ""],
  card_fingerprint: [() => true, ""],
};

export const ZAllowEntryInput = z
  .strictObject({
    kind: z.enum(ALLOW_KINDS, { message: `must be one of ${ALLOW_KINDS.join(", ")}` }),
    value: storableString()
      .trim()
      .min(1, "must not be empty")
      .max(320, "must be at most 320 characters"),
    note: ZNote.optional(),
    /** When the entry stops applying (ISO 8601); none: it lasts until removed. */
    expires_at: z.iso.datetime({ message: "must be an ISO 8601 time", offset: true }).nullish(),
  })
  .transform((entry) => ({
    ...entry,
    value:
      entry.kind === "email" || entry.kind === "email_domain"
        ? entry.value.toLowerCase()
        : entry.value,
  }))
  .superRefine((entry, ctx) => {
    const [ok, message] = CHECKS[entry.kind];
    if (!ok(entry.value)) ctx.addIssue({ code: "custom", path: ["value"], message });
    // One entry must never allow everyone (0.0.0.0/0, ::/0, ::ffff:0:0/96): shared/ip-range.ts.
    const wide = ok(entry.value) && entry.kind === "ip_cidr" ? rangeTooWide(entry.value) : null;
    if (wide) ctx.addIssue({ code: "custom", path: ["value"], message: wide });
  })
  // Checked as typed (a refusal names the limit of the form the merchant wrote), stored in one
  // form: ::ffff:203.0.113.7 as 203.0.113.7 (shared/ip-address.ts).
  .transform((entry) =>
    entry.kind === "ip_cidr" ? { ...entry, value: canonicalIpOrCidr(entry.value) } : entry,
  );
export type AllowEntryInput = z.input<typeof ZAllowEntryInput>;

/** Which entry to remove. */
export const ZAllowEntryRef = z.strictObject({ id: uuidString() });

export const ZAllowEntryView = z.object({
  id: z.string(),
  kind: z.enum(ALLOW_KINDS),
  value: z.string(),
  note: z.string().nullable(),
  added_by: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export type AllowEntryView = z.infer<typeof ZAllowEntryView>;
