/**
 * An account's security settings, which only an owner may change (transport/access.ts:
 * `security.put` needs `own`): whether every member must sign in with a second factor, and
 * how many days the audit log keeps its events. The schema is shared/schemas/team.ts. When
 * two-factor becomes required, each member without it is told by email.
 */
import type { SecuritySettings } from "../../../shared/schemas/team.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { TeamRepository } from "./team.repository.ts";
import { twoFactorRequiredMail } from "./team-mails.ts";
import { accountName } from "./team-steps.ts";

export {
  AUDIT_RETENTION_MAX,
  AUDIT_RETENTION_MIN,
  type SecuritySettings,
  ZSecuritySettings,
} from "../../../shared/schemas/team.ts";

type Repo = Pick<TeamRepository, "security" | "setSecurity" | "members" | "account">;
/** Where the emails go (the outbox) and what their links start with. */
type Notices = { mailer: Mailer; publicUrl: string };

export function createSecurityService(repo: Repo, notices?: Notices) {
  /** Emails every member still without a second factor that the account now requires one. */
  async function tellMembersWithout(accountId: string, { mailer, publicUrl }: Notices) {
    const [members, account] = await Promise.all([
      repo.members(accountId),
      repo.account(accountId),
    ]);
    const name = accountName(account);
    for (const member of members) {
      if (member.user.totpEnabledAt !== null) continue;
      await mailer.send(twoFactorRequiredMail({ to: member.user.email, account: name, publicUrl }));
    }
  }

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
      const was = await repo.security(accountId);
      await repo.setSecurity(accountId, {
        requireTwoFactor: input.require_two_factor,
        auditRetentionDays: input.audit_retention_days,
      });
      if (notices && input.require_two_factor && was && !was.requireTwoFactor) {
        await tellMembersWithout(accountId, notices);
      }
      return get(accountId);
    },
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
