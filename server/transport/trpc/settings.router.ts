import { ZSettingsInput, ZSettingsView } from "../../../shared/schemas/settings.ts";
import { protectedProcedure, router } from "./init.ts";

export const settingsRouter = router({
  get: protectedProcedure
    .output(ZSettingsView)
    .query(({ ctx }) => ctx.services.settings.get(ctx.user.accountId)),

  put: protectedProcedure
    .input(ZSettingsInput)
    .output(ZSettingsView)
    .mutation(({ ctx, input }) => ctx.services.settings.put(ctx.user.accountId, input)),
});
