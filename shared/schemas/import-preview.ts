/**
 * What importing a configuration file will do, in words a person reads (account.previewImport,
 * POST /api/account/config/preview, and the import's own answer): each change with the names
 * the console uses ("Too high risk level with threshold: off → on", not
 * "rule_high_risk: false → true"), and warnings for what the importer must know before they
 * confirm: a second factor they will have to set up at once, members who will have to, data
 * a shorter retention deletes, endpoints that will start receiving events. Pure: the server
 * computes it against the account's export and the caller's session.
 */
import { z } from "zod";
import { fieldName } from "../catalog/field-names.ts";
import { RETENTION, type RetentionKind } from "../privacy/retention.ts";
import {
  type AccountConfig,
  type AccountConfigImport,
  type ConfigChanges,
  configChanges,
  ZConfigChanges,
} from "./account-config.ts";

/** Who imports, as far as the preview's warnings depend on them. */
export type Importer = {
  /** Whether the person importing signs in with a second factor already. */
  twoFactor: boolean;
  /** Other members of the account who have no second factor yet. */
  othersWithoutTwoFactor: number;
};

export const ZImportPreview = z.object({
  changes: ZConfigChanges,
  /** What the importer must know before confirming, most pressing first. */
  warnings: z.array(z.string()),
});
export type ImportPreview = z.infer<typeof ZImportPreview>;

/** The warning shown when the import turns on two-factor sign-in for a person without it. */
export const MUST_ENROL_WARNING =
  "You will have to set up two-factor sign-in right after importing.";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A value as a person reads it: on/off, lists joined, none; `unset` for an absent value. */
function shown(value: unknown, unset = "none"): string {
  if (value === undefined || value === null) return unset;
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  if (typeof value === "object") {
    const parts = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${fieldName(k).toLowerCase()} ${shown(v)}`,
    );
    return parts.length === 0 ? "none" : parts.join(", ");
  }
  return String(value);
}

type Flat = Record<string, unknown>;

/** "Name: before → after" for each key whose value differs, nested records a level down. */
function namedChanges(before: Flat, after: Flat, prefix = "", unset = "none"): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => {
    const [a, b] = [before[key], after[key]];
    if (same(a, b)) return [];
    const name = `${prefix}${fieldName(key)}`;
    const nested = (v: unknown) => v === undefined || (typeof v === "object" && !Array.isArray(v));
    if (prefix === "" && nested(a) && nested(b) && (a || b)) {
      return namedChanges((a ?? {}) as Flat, (b ?? {}) as Flat, `${name} · `, unset);
    }
    return [`${name}: ${shown(a, unset)} → ${shown(b, unset)}`];
  });
}

/** Every change the import makes, per section, in the console's words. */
export function describeChanges(
  current: AccountConfig,
  incoming: AccountConfigImport,
): ConfigChanges {
  const changes = configChanges(current, incoming);
  const keyed = ["rules", "templates", "rule_settings", "score_thresholds", "settings", "security"];
  for (const section of keyed as (keyof ConfigChanges & keyof AccountConfig)[]) {
    const after = incoming[section];
    if (after === undefined) continue;
    changes[section] = namedChanges(current[section] as Flat, after as Flat);
  }
  if (incoming.retention) {
    // Kinds the file leaves out are kept; null is the instance's default.
    const after = incoming.retention as Flat;
    const had = current.retention as Flat;
    const before = Object.fromEntries(Object.keys(after).map((kind) => [kind, had[kind]]));
    changes.retention = namedChanges(before, after, "", "default");
  }
  return changes;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the importer must know before confirming, most pressing first. */
export function importWarnings(
  current: AccountConfig,
  incoming: AccountConfigImport,
  importer: Importer,
): string[] {
  const warnings: string[] = [];
  const security = incoming.security;
  if (security?.require_two_factor && !current.security.require_two_factor) {
    if (!importer.twoFactor) warnings.push(MUST_ENROL_WARNING);
    if (importer.othersWithoutTwoFactor > 0) {
      warnings.push(
        `${plural(importer.othersWithoutTwoFactor, "other member has", "other members have")} no two-factor sign-in yet and will have to set it up before using this account again.`,
      );
    }
  }
  if (security && security.audit_retention_days < current.security.audit_retention_days) {
    warnings.push(
      `Audit log events older than ${security.audit_retention_days} days will be deleted.`,
    );
  }
  for (const [kind, days] of Object.entries(incoming.retention ?? {})) {
    const info = RETENTION[kind as RetentionKind];
    // null is the default (the instance may set its own for some kinds: the shipped one here).
    const before = current.retention[kind as keyof AccountConfig["retention"]] ?? info.default_days;
    if (typeof days === "number" && days < before) {
      warnings.push(`${info.label} older than ${days} days will be deleted.`);
    }
  }
  const added = configChanges(current, incoming).webhook_endpoints.length;
  if (added > 0) {
    warnings.push(
      `${plural(added, "new webhook endpoint", "new webhook endpoints")} will start receiving events; ${added === 1 ? "its signing secret is" : "their signing secrets are"} shown once, right after importing.`,
    );
  }
  return warnings;
}

/** The preview: every change in words, and the warnings. */
export function importPreview(
  current: AccountConfig,
  incoming: AccountConfigImport,
  importer: Importer,
): ImportPreview {
  return {
    changes: describeChanges(current, incoming),
    warnings: importWarnings(current, incoming, importer),
  };
}
