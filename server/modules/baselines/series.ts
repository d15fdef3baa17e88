/**
 * The series of an account's baseline (issue 45): what each screening adds to, by key. Plain
 * series are keyed by event type (screenings, the score's sum), by type and decision, or by
 * rule; keyed series by an identity's keyed digest (one network's signups, one domain's, one
 * promo code's redemptions) or by an amount (checkouts at one amount). Pure.
 */
import { KEYED_SERIES, type KeyedSeries } from "../../../shared/schemas/alerts.ts";
import type { StoredScreening } from "../screening/screening.entry.ts";

export const PLAIN_SERIES = ["screenings", "decision", "rule", "score"] as const;
export type PlainSeries = (typeof PLAIN_SERIES)[number];
export type Series = PlainSeries | KeyedSeries;

/** One addition: `n` to `series` at `key`. */
export type Addition = { series: Series; key: string; n: number };

/**
 * The rollup's buckets: every series by 5 minutes (the window and the chart); plain series by
 * the hour (the usual rate for this hour of the week), keyed ones by the week (one key's usual
 * rate: most keys are seen a few times a week, and an hour apiece would be a row per event).
 */
export const SPANS = { bucket: 5, hour: 60, week: 7 * 24 * 60 } as const;

/** Whether a series is keyed by an identity or an amount (counted by the week). */
export const isKeyed = (series: string) => (KEYED as readonly string[]).includes(series);
const KEYED: readonly Series[] = KEYED_SERIES;

/** What one screening adds to its account's series. */
export function additionsOf(
  row: Pick<StoredScreening, "type" | "decision" | "rules" | "score" | "identities" | "input">,
): Addition[] {
  const out: Addition[] = [
    { series: "screenings", key: row.type, n: 1 },
    { series: "decision", key: `${row.type}:${row.decision}`, n: 1 },
    { series: "score", key: row.type, n: row.score },
  ];
  for (const rule of new Set(row.rules)) out.push({ series: "rule", key: rule, n: 1 });
  const ids = row.identities.values;
  if (row.type === "signup") {
    // A hosting provider's whole network where the address is off consumer networks, else its /24.
    const network = ids.network ?? ids.subnet;
    if (network) out.push({ series: "signup_network", key: network, n: 1 });
    // The same, of the signups Warden did not let through: a farm caught in numbers, where a
    // crowd (an office's onboarding, a campus's NAT) is mostly let through.
    if (network && row.decision !== "allow") {
      out.push({ series: "flagged_signup_network", key: network, n: 1 });
    }
    if (ids.domain) out.push({ series: "signup_domain", key: ids.domain, n: 1 });
  }
  if (ids.promo) out.push({ series: "promo", key: ids.promo, n: 1 });
  if (row.type === "checkout") {
    const input = row.input as { amount?: unknown; currency?: unknown } | null;
    if (input && typeof input.amount === "number") {
      const currency = typeof input.currency === "string" ? input.currency.toLowerCase() : "";
      out.push({ series: "checkout_amount", key: `${input.amount} ${currency}`.trim(), n: 1 });
    }
  }
  return out;
}

/**
 * The bucket of `span` minutes that holds `ms`, as minutes since the epoch at its start (weeks
 * start on the epoch's weekday, a Thursday 00:00 UTC: any fixed start serves a weekly rate).
 */
export function bucketOf(ms: number, span: number): number {
  const minute = Math.floor(ms / 60_000);
  return minute - (((minute % span) + span) % span);
}
