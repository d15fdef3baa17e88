/**
 * The console's Settings → Account: export the account's configuration, import one (owners),
 * delete the account (owners, with its name and their password typed again). Who may call
 * each is transport/access.ts's table; the rules are the account-data service's.
 */
import { z } from "zod";
import {
  ZAccountConfig,
  ZAccountConfigInput,
  ZAccountDelete,
  ZConfigImported,
} from "../../../shared/schemas/account-config.ts";
import { protectedProcedure, router } from "./init.ts";

export const accountRouter = router({
  exportConfig: protectedProcedure
    .output(ZAccountConfig)
    .query(({ ctx }) => ctx.services.accountData.exportConfig(ctx.user.accountId)),

  /** Every section in one transaction; each new webhook endpoint's secret is shown once. */
  importConfig: protectedProcedure
    .input(ZAccountConfigInput)
    .output(ZConfigImported)
    .mutation(({ ctx, input }) => ctx.services.accountData.importConfig(ctx.caller, input)),

  /** Deletes the account and all its data; this session ends (the console shows the login). */
  delete: protectedProcedure
    .input(ZAccountDelete)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.accountData.deleteAccount(ctx.caller, input);
      ctx.sessionCookie.clear();
      return { ok: true as const };
    }),
});
