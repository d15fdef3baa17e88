/** The console's Audit log page: a page of the account's events, newest first, filtered. */
import { ZAuditListInput, ZAuditPage } from "../../../shared/schemas/audit.ts";
import { protectedProcedure, router } from "./init.ts";

export const auditRouter = router({
  list: protectedProcedure
    .input(ZAuditListInput)
    .output(ZAuditPage)
    .query(({ ctx, input }) => ctx.services.audit.page(ctx.user.accountId, input)),
});
