/**
 * An account's security settings, which only an owner may change (transport/access.ts:
 * `security.put` needs `own`): whether every member must sign in with a second factor, and
 * how many days the audit log keeps its events. The schema is shared/schemas/team.ts.
 */
import type { SecuritySettings } from "../../../shared/schemas/team.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TeamRepository } from "./team.repository.ts";

export {
  AUDIT_RETENTION_MAX,
  AUDIT_RETENTION_MIN,
  type SecuritySettings,
  ZSecuritySettings,
} from "../../../shared/schemas/team.ts";

export function createSecurityService(repo: Pick<TeamRepository, "security" | "setSecurity">) {
  async function get(accountId: string): Promise<SecuritySettings> {
    const account = await repo.security(accountId);
    if (!account) throw new AppError("NOT_FOUND", "No such account.");
    return {
      require_two_factor: account.requireTwoFactor,
      audit_retention_days: account.auditRetentionDays,
    };
  }

  return {
    get,

    async put(accountId: string, input: SecuritySettings): Promise<SecuritySettings> {
      await repo.setSecurity(accountId, {
        requireTwoFactor: input.require_two_factor,
        auditRetentionDays: input.audit_retention_days,
      });
      return get(accountId);
    },
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
