import { z } from "zod";
import { ZDemoLoaded, ZDemoPreview, ZDemoRemoved } from "../../../shared/schemas/demo.ts";
import { protectedProcedure, router } from "./init.ts";

const ZImportJob = z
  .object({
    id: z.string(),
    status: z.string(),
    days: z.number(),
    imported: z.number(),
    progress: z.number(),
    error: z.string().nullable(),
  })
  .nullable();

const pick = (job: z.infer<typeof ZImportJob>) =>
  job && {
    id: job.id,
    status: job.status,
    days: job.days,
    imported: job.imported,
    progress: job.progress,
    error: job.error,
  };

export const stripeRouter = router({
  /** Sends the sample events through this account's webhook URL (local installs). */
  loadDemo: protectedProcedure
    .output(ZDemoLoaded)
    .mutation(({ ctx }) => ctx.services.demo.load(ctx.user.accountId)),

  /** What loading the demo would do now, and how many demo charges the account holds. */
  demoPreview: protectedProcedure
    .output(ZDemoPreview)
    .query(({ ctx }) => ctx.services.demo.preview(ctx.user.accountId)),

  /** Deletes the demo's rows and puts back the settings it changed (if unchanged since). */
  removeDemo: protectedProcedure
    .output(ZDemoRemoved)
    .mutation(({ ctx }) => ctx.services.demo.remove(ctx.user.accountId)),

  startImport: protectedProcedure
    .input(z.strictObject({ days: z.number().int().min(1).max(365).default(90) }))
    .output(ZImportJob)
    .mutation(async ({ ctx, input }) =>
      pick(await ctx.services.stripeImport.start(ctx.user.accountId, input.days)),
    ),

  importStatus: protectedProcedure
    .output(ZImportJob)
    .query(async ({ ctx }) => pick(await ctx.services.stripeImport.status(ctx.user.accountId))),
});
