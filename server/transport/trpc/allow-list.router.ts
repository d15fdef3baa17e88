import { z } from "zod";
import {
  ZAllowEntryInput,
  ZAllowEntryRef,
  ZAllowEntryView,
} from "../../../shared/schemas/allow-list.ts";
import { protectedProcedure, router } from "./init.ts";

/** The console's allow list, beside the block lists. */
export const allowListRouter = router({
  list: protectedProcedure
    .output(z.array(ZAllowEntryView))
    .query(({ ctx }) => ctx.services.allowList.list(ctx.user.accountId)),

  add: protectedProcedure
    .input(ZAllowEntryInput)
    .output(ZAllowEntryView)
    .mutation(({ ctx, input }) =>
      ctx.services.allowList.add(ctx.user.accountId, input, ctx.user.email),
    ),

  remove: protectedProcedure
    .input(ZAllowEntryRef)
    .mutation(({ ctx, input }) => ctx.services.allowList.remove(ctx.user.accountId, input.id)),
});
