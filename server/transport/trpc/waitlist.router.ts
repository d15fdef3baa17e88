import { z } from "zod";
import { ZWaitlistJoin, ZWaitlistJoinResult } from "../../../shared/schemas/waitlist.ts";
import { publicProcedure, router } from "./init.ts";

export const waitlistRouter = router({
  join: publicProcedure
    .input(ZWaitlistJoin)
    .output(ZWaitlistJoinResult)
    .mutation(({ ctx, input }) => ctx.services.waitlist.join(input, ctx.ip)),

  links: publicProcedure
    .output(z.object({ socialUrl: z.string() }))
    .query(({ ctx }) => ctx.services.waitlist.links()),
});
