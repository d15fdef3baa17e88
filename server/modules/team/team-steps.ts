/** Small steps every team use case takes: who is acting, the account's lock, refusals, names. */
import { MESSAGES } from "../../../shared/messages.ts";
import type { Role } from "../../../shared/team/roles.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Caller } from "../../lib/caller.ts";
import type { LockedTeam, TeamRepository } from "./team.repository.ts";
import { invitesKept, type Refusal } from "./team.rules.ts";
import type { Member } from "./team.types.ts";

/** The signed-in member behind a caller (an API key is no member: 401). */
export function memberOf(caller: Caller): Member {
  const { accountId, userId, email, role, via } = caller;
  if (via !== "session" || !userId || !email || !role) {
    throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
  }
  return { accountId, userId, email, role };
}

/** Throws the rules' refusal, if there is one. */
export function refused(refusal: Refusal | null): void {
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

/** Runs a change under the account's row lock; 404 when the account itself is gone. */
export async function locked<T>(
  repo: TeamRepository,
  accountId: string,
  work: (team: LockedTeam) => Promise<T>,
): Promise<T> {
  const result = await repo.locked(accountId, async (team) => ({ value: await work(team) }));
  if (result === null) throw new AppError("NOT_FOUND", "No such account.");
  return result.value;
}

/**
 * The acting member and the member they act on, as the locked transaction reads them: 404
 * when the target is not in the account, 403 when the actor no longer is.
 */
export async function actorAndTarget(team: LockedTeam, actor: Member, userId: string) {
  const me = await team.member(actor.userId);
  const target = await team.member(userId);
  if (!target) throw new AppError("NOT_FOUND", MESSAGES.memberNotFound);
  if (!me) throw new AppError("FORBIDDEN", MESSAGES.forbiddenForRole);
  return { me, target, self: userId === actor.userId };
}

/**
 * Gives a member a new role, or takes them out (`null`), and in the same transaction revokes
 * the invitations they sent that their new place may not send (team.rules.ts `invitesKept`):
 * an admin removed or made a viewer cannot still bring someone in through an old link.
 */
export async function placeMember(
  team: LockedTeam,
  userId: string,
  role: Role | null,
  at: Date,
): Promise<void> {
  if (role) await team.setRole(userId, role);
  else await team.removeMember(userId);
  await team.revokeInvitesBy(userId, invitesKept(role), at);
}

/** An account's name, as everywhere: db/account-name.ts. */
export { accountName } from "../../db/account-name.ts";
