/** Wires repositories and services once per app; transports receive this object. */
import type { PrismaClient } from "./db/generated/client.ts";
import type { Encryptor } from "./lib/encryption.ts";
import type { Mailer } from "./lib/mailer.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createSessionService } from "./modules/auth/session.service.ts";
import { createBlocklistRepository } from "./modules/blocklist/blocklist.repository.ts";
import { createBlocklistService } from "./modules/blocklist/blocklist.service.ts";
import { createRulesRepository } from "./modules/rules/rules.repository.ts";
import { createRulesService } from "./modules/rules/rules.service.ts";
import { createSettingsRepository } from "./modules/settings/settings.repository.ts";
import { createSettingsService } from "./modules/settings/settings.service.ts";
import { createTemplatesRepository } from "./modules/templates/templates.repository.ts";
import { createTemplatesService } from "./modules/templates/templates.service.ts";
import { createThrottleRepository } from "./modules/throttle/throttle.repository.ts";
import { createThrottleService } from "./modules/throttle/throttle.service.ts";
import { createWaitlistRepository } from "./modules/waitlist/waitlist.repository.ts";
import { createWaitlistService } from "./modules/waitlist/waitlist.service.ts";

export type ServiceDeps = {
  prisma: PrismaClient;
  mailer: Mailer;
  publicUrl: string;
  socialUrl: string;
  /** Seals merchant secrets at rest (AES-256-GCM). */
  encryptor: Encryptor;
  now: () => Date;
};

export function createServices({
  prisma,
  mailer,
  publicUrl,
  socialUrl,
  encryptor,
  now,
}: ServiceDeps) {
  const authRepo = createAuthRepository(prisma);
  const sessions = createSessionService(authRepo, now);
  const throttle = createThrottleService(createThrottleRepository(prisma), now);
  const auth = createAuthService({ repo: authRepo, sessions, throttle, mailer, publicUrl, now });
  const waitlist = createWaitlistService({
    repo: createWaitlistRepository(prisma),
    throttle,
    socialUrl,
    now,
  });
  return {
    sessions,
    throttle,
    auth,
    waitlist,
    rules: createRulesService(createRulesRepository(prisma)),
    templates: createTemplatesService(createTemplatesRepository(prisma)),
    blocklist: createBlocklistService(createBlocklistRepository(prisma)),
    settings: createSettingsService({ repo: createSettingsRepository(prisma), encryptor }),
    async ping(): Promise<void> {
      await prisma.$queryRaw`SELECT 1`;
    },
  };
}

export type Services = ReturnType<typeof createServices>;
