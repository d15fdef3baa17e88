/** Wires repositories and services once per app; transports receive this object. */
import type { PrismaClient } from "./db/generated/client.ts";
import type { Mailer } from "./lib/mailer.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createSessionService } from "./modules/auth/session.service.ts";
import { createThrottleRepository } from "./modules/throttle/throttle.repository.ts";
import { createThrottleService } from "./modules/throttle/throttle.service.ts";

export type ServiceDeps = {
  prisma: PrismaClient;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
};

export function createServices({ prisma, mailer, publicUrl, now }: ServiceDeps) {
  const authRepo = createAuthRepository(prisma);
  const sessions = createSessionService(authRepo, now);
  const throttle = createThrottleService(createThrottleRepository(prisma), now);
  const auth = createAuthService({ repo: authRepo, sessions, throttle, mailer, publicUrl, now });
  return {
    sessions,
    throttle,
    auth,
    async ping(): Promise<void> {
      await prisma.$queryRaw`SELECT 1`;
    },
  };
}

export type Services = ReturnType<typeof createServices>;
