import { ZTemplates } from "../../../shared/schemas/templates.ts";
import { protectedProcedure, router } from "./init.ts";

export const templatesRouter = router({
  get: protectedProcedure
    .output(ZTemplates)
    .query(({ ctx }) => ctx.services.templates.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZTemplates)
    .output(ZTemplates)
    .mutation(({ ctx, input }) => ctx.services.templates.put(ctx.user.accountId, input)),
});
