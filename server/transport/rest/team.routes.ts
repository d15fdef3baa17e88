/**
 * The team and the account's security settings as REST, for scripts with
 * `Authorization: Bearer <token>` from POST /api/auth/login: members and invitations, roles,
 * leaving, ownership, accepting an invitation, and the public preview of an invitation link.
 * Each row names its operation (transport/access.ts) and calls the same service as the
 * console's procedure.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { MESSAGES } from "../../../shared/messages.ts";
import {
  ZInviteInput,
  ZInvitePreview,
  ZInviteRef,
  ZInviteToken,
  ZInviteView,
  ZJoined,
  ZMemberRef,
  ZMemberView,
  ZRoleBody,
  ZSecuritySettings,
  ZTeamView,
} from "../../../shared/schemas/team.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Services } from "../../services.ts";
import { addRoutes, type Route, route } from "./route.ts";

const ZOk = z.object({ ok: z.literal(true) });

function sessionIdOf(request: FastifyRequest): string {
  if (!request.session) throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
  return request.session.id;
}

export function teamRouteTable(services: Services): Route[] {
  const { team, security } = services;
  const session = "session" as const;
  return [
    route({
      method: "GET",
      url: "/team",
      tag: "team",
      summary:
        "The account's members (role, joined, two-factor, which one is you) and the invitations waiting for an answer",
      op: "team.get",
      auth: session,
      response: ZTeamView,
      handler: ({ caller }) => team.get(caller),
    }),
    route({
      method: "POST",
      url: "/team/invites",
      tag: "team",
      summary:
        "Invite an email as admin, analyst or viewer (owner only by an owner): emails a link valid for 7 days, replacing any earlier invitation to the same email",
      op: "team.invite",
      auth: session,
      body: ZInviteInput,
      response: ZInviteView,
      errors: [403, 409, 429],
      examples: { body: { email: "analyst@example.com", role: "analyst" } },
      handler: ({ caller, body }) => team.invite(caller, body),
    }),
    route({
      method: "DELETE",
      url: "/team/invites/:id",
      tag: "team",
      summary: "Withdraw an invitation: its link stops working",
      op: "team.revokeInvite",
      auth: session,
      params: ZInviteRef,
      response: null,
      errors: [403, 404],
      handler: ({ caller, params }) => team.revokeInvite(caller, params.id),
    }),
    route({
      method: "PUT",
      url: "/team/members/:user_id",
      tag: "team",
      summary:
        "Change a member's role (admins: among admin, analyst and viewer; owners: any, but never leaving the account without an owner)",
      op: "team.changeRole",
      auth: session,
      params: ZMemberRef,
      body: ZRoleBody,
      response: ZMemberView,
      errors: [403, 404, 409],
      examples: { body: { role: "viewer" } },
      handler: ({ caller, params, body }) => team.changeRole(caller, params.user_id, body.role),
    }),
    route({
      method: "DELETE",
      url: "/team/members/:user_id",
      tag: "team",
      summary:
        "Remove a member: their sessions move to another of their accounts (or end, with none)",
      op: "team.remove",
      auth: session,
      params: ZMemberRef,
      response: null,
      errors: [403, 404, 409],
      handler: ({ caller, params }) => team.remove(caller, params.user_id),
    }),
    route({
      method: "POST",
      url: "/team/leave",
      tag: "team",
      summary: "Leave the account this session acts in (not as its last owner)",
      op: "team.leave",
      auth: session,
      response: ZOk,
      errors: [409],
      handler: async ({ caller }) => {
        await team.leave(caller);
        return { ok: true };
      },
    }),
    route({
      method: "POST",
      url: "/team/transfer",
      tag: "team",
      summary: "Make another member the owner; you become an admin (owners only)",
      op: "team.transferOwnership",
      auth: session,
      body: ZMemberRef,
      response: ZOk,
      errors: [403, 404, 409],
      handler: async ({ caller, body }) => {
        await team.transferOwnership(caller, body.user_id);
        return { ok: true };
      },
    }),
    route({
      method: "POST",
      url: "/team/invites/accept",
      tag: "team",
      summary:
        "Accept an invitation sent to the email you are signed in with: you join its account, and this session acts there",
      op: "team.acceptInvite",
      auth: session,
      body: ZInviteToken,
      response: ZJoined,
      errors: [403, 404, 409],
      handler: ({ caller, body }, request) =>
        team.acceptInvite(caller, sessionIdOf(request), body.token, request.ip),
    }),
    route({
      method: "GET",
      url: "/invites/:token",
      tag: "team",
      summary:
        "What an invitation link offers (no sign-in needed): the account, who invited, the email and role, and whether it is still open",
      op: "team.invitePreview",
      auth: "none",
      params: ZInviteToken,
      response: ZInvitePreview,
      errors: [404],
      handler: ({ params }) => team.invitePreview(params.token),
    }),
    route({
      method: "GET",
      url: "/security",
      tag: "team",
      summary: "The account's security settings: two-factor for every member, audit retention",
      op: "security.get",
      auth: session,
      response: ZSecuritySettings,
      handler: ({ caller }) => security.get(caller.accountId),
    }),
    route({
      method: "PUT",
      url: "/security",
      tag: "team",
      summary:
        "Replace the security settings (owners only): require two-factor sign-in of every member, keep audit events 30 to 2555 days",
      op: "security.put",
      auth: session,
      body: ZSecuritySettings,
      response: ZSecuritySettings,
      errors: [403],
      examples: { body: { require_two_factor: true, audit_retention_days: 365 } },
      handler: ({ caller, body }) => security.put(caller.accountId, body),
    }),
  ];
}

export async function teamRoutes(app: FastifyInstance, { services }: { services: Services }) {
  addRoutes(app, teamRouteTable(services), services);
}
