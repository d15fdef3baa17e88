/** The console's (and the typed client's) tRPC router, built from the operations' rows. */
import { AREAS } from "../operations/index.ts";
import { createCallerFactory } from "./init.ts";
import { appRouterOf } from "./procedures.ts";

export const appRouter = appRouterOf(AREAS);

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
