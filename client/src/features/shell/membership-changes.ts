/**
 * What changed in a person's memberships since this browser last saw them: an account they
 * are no longer in (removed), or a new role in one (made its owner, made a viewer). The
 * console keeps the accounts it last saw per person, so a change made by someone else shows
 * once, on the next load, beside the email that says the same. Pure.
 */
import { ROLE_LABELS, type Role } from "../../../../shared/team/roles.ts";

export type Membership = { account_id: string; name: string; role: Role };

export type MembershipChange = {
  /** Stable for the change, so a list of them keys by it. */
  key: string;
  text: string;
};

/** The changes from `before` (what was last seen) to `now`; none when nothing was seen yet. */
export function membershipChanges(
  before: readonly Membership[] | null,
  now: readonly Membership[],
): MembershipChange[] {
  if (!before) return [];
  const current = new Map(now.map((m) => [m.account_id, m]));
  const changes: MembershipChange[] = [];
  for (const old of before) {
    const found = current.get(old.account_id);
    if (!found) {
      changes.push({
        key: `gone:${old.account_id}`,
        text: `You are no longer a member of ${old.name}.`,
      });
    } else if (found.role !== old.role) {
      changes.push({
        key: `role:${old.account_id}:${found.role}`,
        text: `You are now ${ROLE_LABELS[found.role]} in ${found.name} (you were ${ROLE_LABELS[old.role]}).`,
      });
    }
  }
  return changes;
}

/** What was stored, if it reads as memberships; null for nothing or anything else. */
export function readMemberships(stored: string | null): Membership[] | null {
  if (!stored) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return null;
    const valid = value.every(
      (m) =>
        typeof m?.account_id === "string" &&
        typeof m?.name === "string" &&
        typeof m?.role === "string" &&
        m.role in ROLE_LABELS,
    );
    return valid ? (value as Membership[]) : null;
  } catch {
    return null;
  }
}
