import { ZBlocklist, ZBlocklistView } from "../../../shared/schemas/blocklist.ts";
import { protectedProcedure, router } from "./init.ts";

export const blocklistRouter = router({
  get: protectedProcedure
    .output(ZBlocklistView)
    .query(({ ctx }) => ctx.services.blocklist.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZBlocklist)
    .output(ZBlocklistView)
    .mutation(({ ctx, input }) => ctx.services.blocklist.put(ctx.user.accountId, input)),
});
