/**
 * Data retention an account can see and set (Settings → Data retention): each kind's days,
 * its default and limits, and what a setting breaks among the rules' windows under the
 * account's rule settings. Only an owner may change it (transport/access.ts: retention.put
 * needs `own`); housekeeping enforces it (modules/housekeeping).
 */
import {
  RETENTION,
  RETENTION_KINDS,
  type RetentionKind,
  retentionBreaks,
  ruleWindows,
} from "../../../shared/privacy/retention.ts";
import type { RetentionSettings, RetentionView } from "../../../shared/schemas/retention.ts";
import type { RuleSettings } from "../../../shared/schemas/rule-settings.ts";
import { AppError } from "../../lib/app-error.ts";
import type { RetentionColumns, RetentionRepository } from "./retention.repository.ts";

/** Which Account column keeps each kind. */
const COLUMN: Record<RetentionKind, keyof RetentionColumns> = {
  screenings: "screeningRetentionDays",
  collector_tokens: "collectorRetentionDays",
  identities: "identityRetentionDays",
  webhook_deliveries: "webhookDeliveryRetentionDays",
  audit_log: "auditRetentionDays",
  charges_personal: "chargePersonalRetentionDays",
};

/** The audit log's column is not nullable: its default is written, not null. */
const STORED_DEFAULT: Partial<Record<RetentionKind, number>> = {
  audit_log: RETENTION.audit_log.default_days,
};

export type RetentionDefaults = Record<RetentionKind, number>;

/** The defaults, with the instance's own where it has one (SCREENING_RETENTION_DAYS, ...). */
export function retentionDefaults(instance: Partial<RetentionDefaults> = {}): RetentionDefaults {
  const out = {} as RetentionDefaults;
  for (const kind of RETENTION_KINDS) out[kind] = instance[kind] ?? RETENTION[kind].default_days;
  return out;
}

export function createRetentionService(deps: {
  repo: RetentionRepository;
  ruleSettings: { get(accountId: string): Promise<RuleSettings> };
  defaults: RetentionDefaults;
}) {
  const { repo, defaults } = deps;

  async function get(accountId: string): Promise<RetentionView> {
    const [columns, settings] = await Promise.all([
      repo.find(accountId),
      deps.ruleSettings.get(accountId),
    ]);
    if (!columns) throw new AppError("NOT_FOUND", "No such account.");
    const windows = ruleWindows(settings);
    return {
      kinds: RETENTION_KINDS.map((kind) => {
        const info = RETENTION[kind];
        const stored = columns[COLUMN[kind]];
        const days = stored ?? defaults[kind];
        return {
          kind,
          label: info.label,
          holds: info.holds,
          days,
          default_days: defaults[kind],
          is_default: stored === null || stored === STORED_DEFAULT[kind],
          min: info.min,
          max: info.max,
          breaks: retentionBreaks(kind, days, windows),
        };
      }),
      windows,
    };
  }

  return {
    get,

    /** Sets the kinds named (null: back to the default); the rest are kept. */
    async put(accountId: string, input: RetentionSettings): Promise<RetentionView> {
      const data: Partial<Record<keyof RetentionColumns, number | null>> = {};
      for (const kind of RETENTION_KINDS) {
        const days = input[kind];
        if (days === undefined) continue;
        data[COLUMN[kind]] = days ?? STORED_DEFAULT[kind] ?? null;
      }
      if (Object.keys(data).length > 0) {
        await repo.save(accountId, data as Partial<RetentionColumns>);
      }
      return get(accountId);
    },

    /** Clears one batch of charges' personal fields past retention (housekeeping's step). */
    clearChargePersonal(now: Date, batch: number): Promise<number> {
      return repo.clearChargePersonal(now, defaults.charges_personal, batch);
    },

    /** Clears one batch of labels' notes past their subject's retention (housekeeping's step). */
    clearLabelNotes(now: Date, batch: number): Promise<number> {
      const { screenings, charges_personal: charges } = defaults;
      return repo.clearLabelNotes(now, { screenings, charges }, batch);
    },

    /** Deletes one batch of allow-list entries that ended past the screenings' retention. */
    purgeEndedAllowEntries(now: Date, batch: number): Promise<number> {
      return repo.purgeEndedAllowEntries(now, defaults.screenings, batch);
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
