/** Wiring: people and their accounts (sessions, sign-up and login, the outbox, the waitlist). */
import { createAccountsRepository } from "../modules/accounts/accounts.repository.ts";
import { createAuthRepository } from "../modules/auth/auth.repository.ts";
import { createAuthService } from "../modules/auth/auth.service.ts";
import { createSessionService } from "../modules/auth/session.service.ts";
import { createOutboxRepository } from "../modules/outbox/outbox.repository.ts";
import { createOutboxService } from "../modules/outbox/outbox.service.ts";
import { createThrottleRepository } from "../modules/throttle/throttle.repository.ts";
import { createThrottleService } from "../modules/throttle/throttle.service.ts";
import { createWaitlistRepository } from "../modules/waitlist/waitlist.repository.ts";
import { createWaitlistService } from "../modules/waitlist/waitlist.service.ts";
import type { ServiceDeps } from "./deps.ts";

export function wireAccounts({ prisma, mailer, publicUrl, socialUrl, log, now }: ServiceDeps) {
  const authRepo = createAuthRepository(prisma);
  const sessions = createSessionService(authRepo, now);
  const throttle = createThrottleService(createThrottleRepository(prisma), now);
  // Account emails go through the durable outbox: requests never wait for SMTP.
  const outbox = createOutboxService({
    repo: createOutboxRepository(prisma),
    transport: mailer,
    now,
    log,
  });
  const auth = createAuthService({
    repo: authRepo,
    sessions,
    throttle,
    mailer: outbox,
    publicUrl,
    now,
  });
  const waitlist = createWaitlistService({
    repo: createWaitlistRepository(prisma),
    throttle,
    socialUrl,
    now,
  });
  return { sessions, throttle, outbox, auth, waitlist, accounts: createAccountsRepository(prisma) };
}
