/**
 * The team of an account: its members and their roles, invitations by email, ownership, and
 * the security settings only an owner may change. The console's forms and the server (tRPC
 * and REST) validate with these same schemas.
 */
import { z } from "zod";
import { ROLES } from "../team/roles.ts";
import { ZAccountName, ZEmail, ZPassword } from "./auth.ts";
import { uuidString } from "./storable.ts";

/** How long an invitation link works. */
export const INVITE_DAYS = 7;
/** Invitations waiting for an answer an account may hold at once. */
export const PENDING_INVITES_MAX = 50;

const ZRole = z.enum(ROLES, { message: "must be owner, admin, analyst or viewer" });
/** A member's user id or an invitation's id: both UUIDs. */
const ZId = uuidString();
/** An invitation's token as the emailed link carries it (20 random bytes, base32). */
const ZToken = z
  .string({ message: "must be a string" })
  .min(1, "is required")
  .max(200, "is too long");

export const ZInviteInput = z.strictObject({ email: ZEmail, role: ZRole });
export type InviteInput = z.infer<typeof ZInviteInput>;

export const ZInviteRef = z.strictObject({ id: ZId });
export const ZMemberRef = z.strictObject({ user_id: ZId });
export const ZRoleChange = z.strictObject({ user_id: ZId, role: ZRole });
/** The body of PUT /api/team/members/{user_id}: the member is in the path. */
export const ZRoleBody = z.strictObject({ role: ZRole });
export const ZInviteToken = z.strictObject({ token: ZToken });
/** A person new to Warden joins through the link: the password they choose (issue 47). */
export const ZJoinInvite = z.strictObject({ token: ZToken, password: ZPassword });
export type JoinInvite = z.infer<typeof ZJoinInvite>;
/** The name the owner gives the account (empty: the app's name, then an owner's email). */
export const ZAccountNameInput = z.strictObject({ name: ZAccountName });
/** The name as set, and as people read it (with the stand-in when none is set). */
export const ZAccountNameView = z.object({ name: z.string(), shown: z.string() });
export type AccountNameView = z.infer<typeof ZAccountNameView>;

export const ZMemberView = z.object({
  user_id: z.string(),
  email: z.string(),
  role: ZRole,
  joined_at: z.string(),
  two_factor: z.boolean(),
  /** The signed-in person's own row. */
  you: z.boolean(),
});
export type MemberView = z.infer<typeof ZMemberView>;

export const ZInviteView = z.object({
  id: z.string(),
  email: z.string(),
  role: ZRole,
  /** The inviter's email (null when they are no longer a Warden user). */
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type InviteView = z.infer<typeof ZInviteView>;

export const ZTeamView = z.object({
  members: ZMemberView.array(),
  /** Invitations not yet accepted nor revoked, newest first (expired ones for a while). */
  invites: ZInviteView.array(),
});
export type TeamView = z.infer<typeof ZTeamView>;

export const INVITE_STATUSES = ["pending", "expired", "revoked", "accepted"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** What the /invite page shows before anyone signs in: who invites whom, where, as what. */
export const ZInvitePreview = z.object({
  account_name: z.string(),
  invited_by: z.string().nullable(),
  email: z.string(),
  role: ZRole,
  expires_at: z.string(),
  status: z.enum(INVITE_STATUSES),
});
export type InvitePreview = z.infer<typeof ZInvitePreview>;

/** The account a person just joined (their session now acts in it). */
export const ZJoined = z.object({ account_id: z.string(), name: z.string(), role: ZRole });
export type Joined = z.infer<typeof ZJoined>;

/** The audit log's retention: at least 30 days (a month's requests), at most 7 years. */
export const AUDIT_RETENTION_MIN = 30;
export const AUDIT_RETENTION_MAX = 2555;

export const ZSecuritySettings = z.strictObject({
  require_two_factor: z.boolean({ message: "must be true or false" }),
  audit_retention_days: z
    .number({ message: "Enter a whole number of days." })
    .int("Audit retention must be a whole number of days.")
    .min(AUDIT_RETENTION_MIN, `Keep the audit log at least ${AUDIT_RETENTION_MIN} days.`)
    .max(AUDIT_RETENTION_MAX, `Keep the audit log at most ${AUDIT_RETENTION_MAX} days (7 years).`),
});
export type SecuritySettings = z.infer<typeof ZSecuritySettings>;
