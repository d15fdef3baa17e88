import {
  ZLabelHistory,
  ZLabelInput,
  ZLabelSubject,
  ZLabelView,
} from "../../../shared/schemas/labels.ts";
import { apiKeyLabeller } from "../who.ts";
import { apiKeyProcedure, protectedProcedure, router } from "./init.ts";

/** The console: label a screening or charge, and read a subject's label history. */
export const labelsRouter = router({
  add: protectedProcedure
    .input(ZLabelInput)
    .output(ZLabelView)
    .mutation(({ ctx, input }) =>
      ctx.services.labels.add(ctx.user.accountId, input, {
        source: "person",
        who: ctx.user.email,
        whoId: ctx.user.id,
      }),
    ),

  history: protectedProcedure
    .input(ZLabelSubject)
    .output(ZLabelHistory)
    .query(({ ctx, input }) => ctx.services.labels.history(ctx.user.accountId, input)),
});

/** A merchant's backend with a secret key (POST /api/v1/labels). */
export const labelsApiRouter = router({
  create: apiKeyProcedure
    .input(ZLabelInput)
    .output(ZLabelView)
    .mutation(({ ctx, input }) =>
      ctx.services.labels.add(ctx.caller.accountId, input, apiKeyLabeller(ctx.caller)),
    ),
});
