import { ZRules } from "../../../shared/schemas/rules.ts";
import { protectedProcedure, router } from "./init.ts";

export const rulesRouter = router({
  get: protectedProcedure
    .output(ZRules)
    .query(({ ctx }) => ctx.services.rules.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZRules)
    .output(ZRules)
    .mutation(({ ctx, input }) => ctx.services.rules.put(ctx.user.accountId, input)),
});
