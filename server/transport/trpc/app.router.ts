import { authRouter } from "./auth.router.ts";
import { createCallerFactory, router } from "./init.ts";

export const appRouter = router({
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
