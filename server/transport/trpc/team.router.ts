/**
 * The console's Team page: members, roles, invitations, leaving and ownership; and the
 * account's security settings. Who may call each procedure is transport/access.ts's table
 * (by path); the rules between roles are the team service's.
 */
import { z } from "zod";
import {
  ZInviteInput,
  ZInvitePreview,
  ZInviteRef,
  ZInviteToken,
  ZInviteView,
  ZJoined,
  ZMemberRef,
  ZMemberView,
  ZRoleChange,
  ZSecuritySettings,
  ZTeamView,
} from "../../../shared/schemas/team.ts";
import { protectedProcedure, publicProcedure, router } from "./init.ts";

const ZOk = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const teamRouter = router({
  get: protectedProcedure.output(ZTeamView).query(({ ctx }) => ctx.services.team.get(ctx.caller)),

  /** Emails an invitation link; the answer never carries it. */
  invite: protectedProcedure
    .input(ZInviteInput)
    .output(ZInviteView)
    .mutation(({ ctx, input }) => ctx.services.team.invite(ctx.caller, input)),

  revokeInvite: protectedProcedure
    .input(ZInviteRef)
    .output(ZOk)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.team.revokeInvite(ctx.caller, input.id);
      return ok;
    }),

  changeRole: protectedProcedure
    .input(ZRoleChange)
    .output(ZMemberView)
    .mutation(({ ctx, input }) =>
      ctx.services.team.changeRole(ctx.caller, input.user_id, input.role),
    ),

  remove: protectedProcedure
    .input(ZMemberRef)
    .output(ZOk)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.team.remove(ctx.caller, input.user_id);
      return ok;
    }),

  /** The caller leaves the account they act in; their session moves to another one. */
  leave: protectedProcedure.output(ZOk).mutation(async ({ ctx }) => {
    await ctx.services.team.leave(ctx.caller);
    return ok;
  }),

  transferOwnership: protectedProcedure
    .input(ZMemberRef)
    .output(ZOk)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.team.transferOwnership(ctx.caller, input.user_id);
      return ok;
    }),

  /** Joins the invitation's account; the session acts there from the next request. */
  acceptInvite: protectedProcedure
    .input(ZInviteToken)
    .output(ZJoined)
    .mutation(({ ctx, input }) =>
      ctx.services.team.acceptInvite(ctx.caller, ctx.session.id, input.token, ctx.ip),
    ),

  /** Public: what a link offers, for the /invite page before anyone signs in. */
  invitePreview: publicProcedure
    .input(ZInviteToken)
    .output(ZInvitePreview)
    .query(({ ctx, input }) => ctx.services.team.invitePreview(input.token)),
});

export const securityRouter = router({
  get: protectedProcedure
    .output(ZSecuritySettings)
    .query(({ ctx }) => ctx.services.security.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZSecuritySettings)
    .output(ZSecuritySettings)
    .mutation(({ ctx, input }) => ctx.services.security.put(ctx.user.accountId, input)),
});
