import { z } from "zod";
import { ZApiKeyCreate, ZApiKeyCreated, ZApiKeyView } from "../../../shared/schemas/api-keys.ts";
import { protectedProcedure, router } from "./init.ts";

export const apiKeysRouter = router({
  list: protectedProcedure
    .output(z.array(ZApiKeyView))
    .query(({ ctx }) => ctx.services.apiKeys.list(ctx.user.accountId)),

  /** The answer is the only time the whole key is shown. */
  create: protectedProcedure
    .input(ZApiKeyCreate)
    .output(ZApiKeyCreated)
    .mutation(({ ctx, input }) => ctx.services.apiKeys.create(ctx.user.accountId, input)),

  revoke: protectedProcedure
    .input(z.strictObject({ id: z.string().min(1).max(100) }))
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.apiKeys.revoke(ctx.user.accountId, input.id);
      return { revoked: true as const };
    }),
});
