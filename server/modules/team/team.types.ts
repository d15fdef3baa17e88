/** What the team module's use cases share: their dependencies and who is acting. */
import type { Role } from "../../../shared/team/roles.ts";
import type { Mailer } from "../../lib/mailer.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { SessionService } from "../auth/session.service.ts";
import type { ThrottleService } from "../throttle/throttle.service.ts";
import type { TeamRepository } from "./team.repository.ts";

export type TeamDeps = {
  repo: TeamRepository;
  throttle: ThrottleService;
  /** Invitations go out through the account emails' outbox. */
  mailer: Mailer;
  /** A member joining is written to the audit log of the account they join. */
  audit: Pick<AuditService, "record">;
  /** A person who joins through an invitation is signed in at once. */
  sessions: Pick<SessionService, "create">;
  /** Links in emails start with it. */
  publicUrl: string;
  now: () => Date;
};

/** A signed-in member acting in their current account. */
export type Member = { accountId: string; userId: string; email: string; role: Role };
