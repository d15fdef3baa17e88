/**
 * The Team page and the account's security settings: members, roles, invitations, leaving
 * and ownership (the rules between roles are the team service's). REST under /api for
 * scripts with a bearer token; an invitation's preview needs no sign-in.
 */
import { z } from "zod";
import {
  ZAccountNameInput,
  ZAccountNameView,
  ZInviteInput,
  ZInvitePreview,
  ZInviteRef,
  ZInviteToken,
  ZInviteView,
  ZJoined,
  ZJoinInvite,
  ZMemberRef,
  ZMemberView,
  ZRoleBody,
  ZRoleChange,
  ZSecuritySettings,
  ZTeamView,
} from "../../../shared/schemas/team.ts";
import { audits, byId, op } from "../operation.ts";

/** The audit target of an input that names a member. */
const member = (input: { user_id?: string }) => input?.user_id;

const ZOk = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const team = {
  get: op({
    need: "read",
    kind: "query",
    output: ZTeamView,
    handler: ({ services, caller }) => services.team.get(caller),
    rest: {
      method: "GET",
      path: "/team",
      tag: "team",
      summary:
        "The account's members (role, joined, two-factor, which one is you) and the invitations waiting for an answer",
    },
  }),
  /** Emails an invitation link; the answer never carries it. */
  invite: op({
    need: "team",
    audit: true,
    kind: "mutation",
    input: ZInviteInput,
    output: ZInviteView,
    handler: ({ services, caller }, input) => services.team.invite(caller, input),
    rest: {
      method: "POST",
      path: "/team/invites",
      tag: "team",
      summary:
        "Invite an email as admin, analyst or viewer (owner only by an owner): emails a link valid for 7 days, replacing any earlier invitation to the same email",
      errors: [403, 409, 429],
      examples: { body: { email: "analyst@example.com", role: "analyst" } },
    },
  }),
  revokeInvite: op({
    need: "team",
    audit: true,
    target: byId,
    kind: "mutation",
    input: ZInviteRef,
    output: ZOk,
    handler: async ({ services, caller }, input) => {
      await services.team.revokeInvite(caller, input.id);
      return ok;
    },
    rest: {
      method: "DELETE",
      path: "/team/invites/:id",
      tag: "team",
      summary: "Withdraw an invitation: its link stops working",
      response: null,
      errors: [403, 404],
    },
  }),
  changeRole: op({
    need: "team",
    audit: true,
    target: member,
    kind: "mutation",
    input: ZRoleChange,
    output: ZMemberView,
    handler: ({ services, caller }, input) =>
      services.team.changeRole(caller, input.user_id, input.role),
    rest: {
      method: "PUT",
      path: "/team/members/:user_id",
      tag: "team",
      summary:
        "Change a member's role (admins: among admin, analyst and viewer; owners: any, but never leaving the account without an owner)",
      params: ZMemberRef,
      body: ZRoleBody,
      errors: [403, 404, 409],
      examples: { body: { role: "viewer" } },
    },
  }),
  remove: op({
    need: "team",
    audit: true,
    target: member,
    kind: "mutation",
    input: ZMemberRef,
    output: ZOk,
    handler: async ({ services, caller }, input) => {
      await services.team.remove(caller, input.user_id);
      return ok;
    },
    rest: {
      method: "DELETE",
      path: "/team/members/:user_id",
      tag: "team",
      summary:
        "Remove a member: their sessions move to another of their accounts (or end, with none)",
      response: null,
      errors: [403, 404, 409],
    },
  }),
  /** The caller leaves the account they act in; their session moves to another one. */
  leave: op({
    need: "self",
    audit: "event",
    kind: "mutation",
    output: ZOk,
    handler: async ({ services, caller }) => {
      await services.team.leave(caller);
      return ok;
    },
    rest: {
      method: "POST",
      path: "/team/leave",
      tag: "team",
      summary: "Leave the account this session acts in (not as its last owner)",
      errors: [409],
    },
  }),
  transferOwnership: op({
    need: "own",
    audit: true,
    target: member,
    kind: "mutation",
    input: ZMemberRef,
    output: ZOk,
    handler: async ({ services, caller }, input) => {
      await services.team.transferOwnership(caller, input.user_id);
      return ok;
    },
    rest: {
      method: "POST",
      path: "/team/transfer",
      tag: "team",
      summary: "Make another member the owner; you become an admin (owners only)",
      errors: [403, 404, 409],
    },
  }),
  /** Joins the invitation's account; the session acts there from the next request. */
  acceptInvite: op({
    need: "self",
    kind: "mutation",
    input: ZInviteToken,
    output: ZJoined,
    handler: ({ services, caller, session, ip }, input) =>
      services.team.acceptInvite(caller, session.id, input.token, ip),
    rest: {
      method: "POST",
      path: "/team/invites/accept",
      tag: "team",
      summary:
        "Accept an invitation sent to the email you are signed in with: you join its account, and this session acts there",
      errors: [403, 404, 409],
    },
  }),
  /**
   * Public: a person new to Warden chooses a password on the invitation's page and is in,
   * signed in (a cookie) in the account that invited them.
   */
  joinInvite: op({
    need: "public",
    kind: "mutation",
    input: ZJoinInvite,
    output: ZJoined,
    handler: async ({ services, ip, sessionCookie }, input) => {
      const { token, expiresAt, joined } = await services.team.joinInvite(input, ip);
      sessionCookie.set(token, expiresAt);
      return joined;
    },
  }),
  /** The account's name as set, and as people read it (the switch, mails). */
  accountName: op({
    need: "read",
    kind: "query",
    output: ZAccountNameView,
    handler: ({ services, caller }) => services.accountNames.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/team/name",
      tag: "team",
      summary:
        "The account's name: as set (empty for none) and as shown (the app's name, then the first owner's email, stand in)",
    },
  }),
  /** A display setting like the app's name, so whoever may configure the account may set it. */
  renameAccount: op({
    need: "configure",
    audit: audits.snap((s, a) => s.accountNames.get(a)),
    kind: "mutation",
    input: ZAccountNameInput,
    output: ZAccountNameView,
    handler: ({ services, caller }, input) =>
      services.accountNames.put(caller.accountId, input.name),
    rest: {
      method: "PUT",
      path: "/team/name",
      tag: "team",
      summary:
        "Name the account (owners and admins): shown in the account switch, invitations and mails; empty for the app's name",
      errors: [403],
      examples: {
        body: { name: "Acme shop" },
        response: { name: "Acme shop", shown: "Acme shop" },
      },
    },
  }),
  /** Public: what a link offers, for the /invite page before anyone signs in. */
  invitePreview: op({
    need: "public",
    kind: "query",
    input: ZInviteToken,
    output: ZInvitePreview,
    handler: ({ services }, input) => services.team.invitePreview(input.token),
    rest: {
      method: "GET",
      path: "/invites/:token",
      tag: "team",
      summary:
        "What an invitation link offers (no sign-in needed): the account, who invited, the email and role, and whether it is still open",
      errors: [404],
    },
  }),
};

export const security = {
  get: op({
    need: "read",
    kind: "query",
    output: ZSecuritySettings,
    handler: ({ services, caller }) => services.security.get(caller.accountId),
    rest: {
      method: "GET",
      path: "/security",
      tag: "team",
      summary: "The account's security settings: two-factor for every member, audit retention",
    },
  }),
  put: op({
    need: "own",
    audit: audits.snap((s, a) => s.security.get(a)),
    kind: "mutation",
    input: ZSecuritySettings,
    output: ZSecuritySettings,
    handler: ({ services, caller }, input) => services.security.put(caller.accountId, input),
    rest: {
      method: "PUT",
      path: "/security",
      tag: "team",
      summary:
        "Replace the security settings (owners only): require two-factor sign-in of every member, keep audit events 30 to 2555 days",
      errors: [403],
      examples: { body: { require_two_factor: true, audit_retention_days: 365 } },
    },
  }),
};
