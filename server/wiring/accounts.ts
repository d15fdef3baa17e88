/** Wiring: people and their accounts (sessions, sign-up and login, the outbox, the waitlist). */

import { verifyPassword } from "../lib/password.ts";
import { createAccountNamesService } from "../modules/accounts/account-names.service.ts";
import { createAccountsRepository } from "../modules/accounts/accounts.repository.ts";
import { createAuditRepository } from "../modules/audit/audit.repository.ts";
import { createAuditService } from "../modules/audit/audit.service.ts";
import { createAuthRepository } from "../modules/auth/auth.repository.ts";
import { createAuthService } from "../modules/auth/auth.service.ts";
import { createSessionService } from "../modules/auth/session.service.ts";
import { createOutboxRepository } from "../modules/outbox/outbox.repository.ts";
import { createOutboxService } from "../modules/outbox/outbox.service.ts";
import { createSecurityService } from "../modules/team/security.service.ts";
import { createTeamRepository } from "../modules/team/team.repository.ts";
import { createTeamService } from "../modules/team/team.service.ts";
import { createThrottleRepository } from "../modules/throttle/throttle.repository.ts";
import { createThrottleService } from "../modules/throttle/throttle.service.ts";
import { createTwoFactorRepository } from "../modules/two-factor/two-factor.repository.ts";
import { createTwoFactorService } from "../modules/two-factor/two-factor.service.ts";
import { createWaitlistRepository } from "../modules/waitlist/waitlist.repository.ts";
import { createWaitlistService } from "../modules/waitlist/waitlist.service.ts";
import type { ServiceDeps } from "./deps.ts";

export function wireAccounts({
  prisma,
  mailer,
  publicUrl,
  socialUrl,
  encryptor,
  log,
  now,
}: ServiceDeps) {
  const authRepo = createAuthRepository(prisma);
  const accounts = createAccountsRepository(prisma);
  const sessions = createSessionService(authRepo, now);
  const throttle = createThrottleService(createThrottleRepository(prisma), now);
  // Account emails go through the durable outbox: requests never wait for SMTP.
  const outbox = createOutboxService({
    repo: createOutboxRepository(prisma),
    transport: mailer,
    now,
    log,
  });
  const audit = createAuditService({ repo: createAuditRepository(prisma), now });
  const auth = createAuthService({
    repo: authRepo,
    sessions,
    throttle,
    mailer: outbox,
    audit,
    publicUrl,
    now,
  });
  const waitlist = createWaitlistService({
    repo: createWaitlistRepository(prisma),
    throttle,
    socialUrl,
    now,
  });
  const teamRepo = createTeamRepository(prisma);
  const security = createSecurityService(teamRepo, { mailer: outbox, publicUrl });
  const team = createTeamService({
    repo: teamRepo,
    sessions,
    throttle,
    mailer: outbox,
    audit,
    publicUrl,
    now,
  });
  const twoFactor = createTwoFactorService({
    repo: createTwoFactorRepository(prisma),
    sessions,
    throttle,
    audit,
    encryptor,
    verifyPassword,
    now,
    notices: { mailer: outbox, publicUrl },
  });
  return {
    sessions,
    throttle,
    outbox,
    auth,
    audit,
    security,
    team,
    twoFactor,
    waitlist,
    accounts,
    accountNames: createAccountNamesService(accounts),
  };
}
