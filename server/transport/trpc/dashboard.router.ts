import { z } from "zod";
import { protectedProcedure, router } from "./init.ts";

/** Transactions arrive with the Stripe receiver; until then the list is always empty. */
export const ZDashboardRows = z.array(z.never());

export const dashboardRouter = router({
  /** The account's transactions; empty until the Stripe receiver records charges. */
  list: protectedProcedure.output(ZDashboardRows).query(() => []),
});
