import {
  ZEndUserExport,
  ZEndUserSelector,
  ZErasurePreview,
  ZErasureResult,
} from "../../../shared/schemas/end-users.ts";
import { protectedProcedure, router } from "./init.ts";

/**
 * An end user's data rights in the console (docs/privacy.md, decision 029): what an erasure
 * would do, everything held about the person, and the erasure itself (owners and admins).
 */
export const endUsersRouter = router({
  preview: protectedProcedure
    .input(ZEndUserSelector)
    .output(ZErasurePreview)
    .query(({ ctx, input }) => ctx.services.endUsers.preview(ctx.user.accountId, input)),

  export: protectedProcedure
    .input(ZEndUserSelector)
    .output(ZEndUserExport)
    .query(({ ctx, input }) => ctx.services.endUsers.export(ctx.user.accountId, input)),

  erase: protectedProcedure
    .input(ZEndUserSelector)
    .output(ZErasureResult)
    .mutation(({ ctx, input }) => ctx.services.endUsers.erase(ctx.user.accountId, input)),
});
