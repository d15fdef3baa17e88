/**
 * An end user's data rights (docs/privacy.md): find everything Warden holds about one of the
 * merchant's customers, export it, erase it. GET /api/v1/end-users/export and POST
 * /api/v1/end-users/erase with a secret key, and endUsers.* in the console. A person is named
 * by any of their email, user id, device id, IP or card fingerprint; every selector given is
 * matched, exactly as stored (an email in any case, with the spellings the rules fold into one
 * inbox). The other emails and user ids their screenings carried are offered (`widening`) and
 * matched only with `widen: true`: an end user can forge them.
 */
import { z } from "zod";
import { canonicalIp } from "../ip-address.ts";
import { storableString } from "./storable.ts";

const text = (max: number) =>
  storableString().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

export const END_USER_SELECTORS = [
  "email",
  "user_id",
  "device_id",
  "ip",
  "card_fingerprint",
] as const;
export type EndUserSelectorKind = (typeof END_USER_SELECTORS)[number];

/**
 * Who: at least one of email, user_id, device_id, ip, card_fingerprint (an email is matched in
 * any case); `widen` also matches the emails and user ids the preview offers.
 */
export const ZEndUserSelector = z
  .strictObject({
    email: text(320)
      .refine((value) => /^[^\s@]+@[^\s@]+$/.test(value), { message: "must be an email address" })
      .optional(),
    user_id: text(200).optional(),
    device_id: text(200).optional(),
    ip: z
      .union([z.ipv4(), z.ipv6()], { message: "must be an IPv4 or IPv6 address" })
      .transform(canonicalIp)
      .optional(),
    card_fingerprint: text(200).optional(),
    /** A query string's "true"/"false" too (GET /api/v1/end-users/export). */
    widen: z
      .union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], {
        message: "must be true or false",
      })
      .optional(),
  })
  .refine((s) => END_USER_SELECTORS.some((key) => s[key] !== undefined), {
    message: "give at least one of email, user_id, device_id, ip, card_fingerprint",
    path: ["email"],
  });
export type EndUserSelector = z.infer<typeof ZEndUserSelector>;

/** Where an exported item came from: the table (and its meaning) that holds it. */
export const EXPORT_SOURCES = {
  screenings: "Screenings: each screened event, its inputs, browser signals, reasons and review",
  charges: "Charges: the personal fields of Stripe charges (email, card fingerprint, review)",
  labels: "Labels on the person's screenings and charges",
  allow_entries: "Allow-list entries naming the person",
  signal_tokens: "Browser collector signals not yet screened or not yet purged",
  webhook_deliveries: "Decision webhook deliveries that carried the person's data",
  audit_events: "Audit log events that named the person (for example an allow-list entry)",
  identities: "Counting identities: keyed digests only (kept to count, e.g. one trial per email)",
} as const;
export type ExportSource = keyof typeof EXPORT_SOURCES;

/** The most items an export lists per section (`truncated` names a section cut there). */
export const EXPORT_LIMIT = 10_000;

const ZItem = z.record(z.string(), z.unknown());

/** How many rows of each kind matched (an export) or were erased or kept (an erasure). */
export const ZEndUserCounts = z.object({
  screenings: z.number().int(),
  charges: z.number().int(),
  labels: z.number().int(),
  allow_entries: z.number().int(),
  signal_tokens: z.number().int(),
  webhook_deliveries: z.number().int(),
  audit_events: z.number().int(),
  identities: z.number().int(),
});
export type EndUserCounts = z.infer<typeof ZEndUserCounts>;

/**
 * Who the request reached beyond the values asked for: the stored spellings of the asked email
 * that fold to the same inbox (matched with it), and the emails and user ids the person's
 * screenings carried beside it (matched only when `widened`).
 */
const ZReach = {
  spellings: z.array(z.string()),
  widening: z.object({ emails: z.array(z.string()), user_ids: z.array(z.string()) }),
  widened: z.boolean(),
};

/** Everything stored about the person, by where it came from. */
export const ZEndUserExport = z.object({
  ...ZReach,
  exported_at: z.string(),
  /** The selector kinds asked for (their values are in `subject`). */
  selectors: z.array(z.enum(END_USER_SELECTORS)),
  subject: z.object({
    email: z.string().optional(),
    user_id: z.string().optional(),
    device_id: z.string().optional(),
    ip: z.string().optional(),
    card_fingerprint: z.string().optional(),
  }),
  counts: ZEndUserCounts,
  sources: z.record(z.string(), z.string()),
  screenings: z.array(ZItem),
  charges: z.array(ZItem),
  labels: z.array(ZItem),
  allow_entries: z.array(ZItem),
  signal_tokens: z.array(ZItem),
  webhook_deliveries: z.array(ZItem),
  audit_events: z.array(ZItem),
  /** Digests are not the person's data in readable form: counted per kind, not listed. */
  identities: z.object({ count: z.number().int(), kinds: z.record(z.string(), z.number().int()) }),
  /**
   * The sections cut at EXPORT_LIMIT items (newest first); `counts` has their full size. Empty
   * when nothing was cut.
   */
  truncated: z.array(z.string()),
});
export type EndUserExport = z.infer<typeof ZEndUserExport>;

/** What an erasure will do, shown before the merchant confirms (endUsers.preview). */
export const ZErasurePreview = z.object({
  ...ZReach,
  selectors: z.array(z.enum(END_USER_SELECTORS)),
  counts: ZEndUserCounts,
  /** Devices and cards the person's rows carried, not asked for: add them to erase them too. */
  offered: z.object({ devices: z.array(z.string()), cards: z.array(z.string()) }),
  /** What is kept, and why (decision 029), in sentences the console shows as they are. */
  kept: z.array(z.string()),
  /** Where the person may still be named and no typed match can find them: look there. */
  not_searched: z.array(z.string()),
});
export type ErasurePreview = z.infer<typeof ZErasurePreview>;

/** The erasure's answer: what was erased, and what was kept. Never the erased values. */
export const ZErasureResult = z.object({
  erasure_id: z.string(),
  erased_at: z.string(),
  selectors: z.array(z.enum(END_USER_SELECTORS)),
  /** Whether the offered emails and user ids were erased too (`widen: true`). */
  widened: z.boolean(),
  counts: ZEndUserCounts,
  kept: z.array(z.string()),
});
export type ErasureResult = z.infer<typeof ZErasureResult>;
