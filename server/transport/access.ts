/**
 * The one place a call is let in and its change written down. Every tRPC procedure and every
 * REST route names an operation here; `pass` checks the caller against what the operation
 * needs (shared/team/roles.ts has which role may do what), runs it, and, for a change, writes
 * its audit event: who (member or API key), from which IP, what, before and after (secrets
 * masked). An operation not in this table is refused: a new procedure cannot slip through
 * unchecked (test/team/access-sweep.int.test.ts calls every one as every role).
 */
import { MESSAGES } from "../../shared/messages.ts";
import { can, type Permission } from "../../shared/team/roles.ts";
import { AppError } from "../lib/app-error.ts";
import { type Caller, secretKeyCaller } from "../lib/caller.ts";
import { actorOf } from "../modules/audit/audit.service.ts";
import type { ValidSession } from "../modules/auth/session.service.ts";
import type { Services } from "../services.ts";

/**
 * What a call needs: a permission in the account (a signed-in member with a role that has
 * it), `self` (any signed-in member, acting on their own sign-in: two-factor, password,
 * switching accounts), `signingIn` (a session still owing its second factor may call it),
 * `apiKey` (a merchant's backend with a secret key) or `public` (anyone).
 */
export type Need = Permission | "self" | "signingIn" | "apiKey" | "public";

type Snapshot = (services: Services, accountId: string, input: never) => Promise<unknown>;

export type Operation = {
  need: Need;
  /**
   * Written to the audit log when it succeeds: `true` keeps the input (masked, bounded) as
   * "after"; `"event"` keeps only that it happened (an operation that takes no input);
   * `snapshot` reads the state before and after instead (a whole object replaced);
   * `result` keeps what the call answered, shaped by the function, and never its input (an
   * end user's export or erasure: the audit log must not keep the values it was asked about).
   */
  audit?: true | "event" | { snapshot: Snapshot } | { result: (output: never) => unknown };
  /** The audit event's target: the id the input names. */
  target?: (input: never) => string | undefined;
};

const byId = (input: { id?: string }) => input?.id;
const snap = (snapshot: Snapshot) => ({ snapshot });
const result = (shape: (output: never) => unknown) => ({ result: shape });
/** What an end user's export or erasure leaves in the audit log: no value it was asked about. */
const endUserSummary = (output: {
  selectors?: unknown;
  counts?: unknown;
  erasure_id?: string;
  widened?: boolean;
}) => ({
  selectors: output?.selectors,
  counts: output?.counts,
  ...(output?.erasure_id ? { erasure_id: output.erasure_id } : {}),
  ...(output?.widened ? { widened: true } : {}),
});

/** Every operation a console member or a backend may call, and what it needs. */
export const OPERATIONS: Record<string, Operation> = {
  // Signing in and one's own sign-in.
  "auth.me": { need: "public" },
  "auth.signup": { need: "public" },
  "auth.confirmEmail": { need: "public" },
  "auth.login": { need: "public" },
  "auth.logout": { need: "public" },
  "auth.requestPasswordReset": { need: "public" },
  "auth.checkResetLink": { need: "public" },
  "auth.resetPassword": { need: "public" },
  "auth.changePassword": { need: "self", audit: true },
  "auth.accounts": { need: "self" },
  "auth.switchAccount": { need: "self", audit: true },
  "auth.verifyTwoFactor": { need: "signingIn" },
  "twoFactor.status": { need: "self" },
  "twoFactor.begin": { need: "self" },
  "twoFactor.confirm": { need: "self" },
  "twoFactor.disable": { need: "self" },
  "twoFactor.regenerateCodes": { need: "self" },
  "waitlist.join": { need: "public" },
  "waitlist.links": { need: "public" },

  // Reading the account.
  "dashboard.list": { need: "read" },
  "dashboard.summary": { need: "read" },
  "rules.get": { need: "read" },
  "templates.get": { need: "read" },
  "blocklist.get": { need: "read" },
  "settings.get": { need: "read" },
  "stripe.demoPreview": { need: "read" },
  "stripe.importStatus": { need: "read" },
  "apiKeys.list": { need: "read" },
  "ruleSettings.get": { need: "read" },
  "ruleSettings.effective": { need: "read" },
  "screenings.list": { need: "read" },
  "screenings.counts": { need: "read" },
  "screenings.perMinute": { need: "read" },
  "backtest.status": { need: "read" },
  "labels.history": { need: "read" },
  "review.queue": { need: "read" },
  "review.count": { need: "read" },
  "review.detail": { need: "read" },
  "review.chargeDetail": { need: "read" },
  "allowList.list": { need: "read" },
  "allowedOrigins.get": { need: "read" },
  "webhooks.endpoints": { need: "read" },
  "webhooks.endpointLimit": { need: "read" },
  "webhooks.deliveries": { need: "read" },
  "scoreModels.list": { need: "read" },
  "scoreThresholds.get": { need: "read" },
  "team.get": { need: "read" },
  "audit.list": { need: "read" },
  "audit.export": { need: "read" },
  "security.get": { need: "read" },
  "live.stream": { need: "read" },

  // Reviewing: decisions, labels, the allow list.
  "review.settle": { need: "review", audit: true, target: byId },
  "review.bulk": { need: "review", audit: true },
  "labels.add": {
    need: "review",
    audit: true,
    target: (input: { subject_id?: string }) => input?.subject_id,
  },
  "allowList.add": { need: "review", audit: true },
  "allowList.remove": { need: "review", audit: true, target: byId },
  // A what-if over past screenings changes nothing, but costs the server: analysts may run it.
  "backtest.start": { need: "review" },
  "backtest.cancel": { need: "review" },
  "scoreThresholds.preview": { need: "read" },

  // Configuring detection, Stripe, keys and webhooks.
  "rules.put": { need: "configure", audit: snap((s, a) => s.rules.get(a)) },
  "templates.put": { need: "configure", audit: snap((s, a) => s.templates.get(a)) },
  "blocklist.put": { need: "configure", audit: snap((s, a) => s.blocklist.get(a)) },
  "settings.put": { need: "configure", audit: snap((s, a) => s.settings.get(a)) },
  "ruleSettings.put": { need: "configure", audit: snap((s, a) => s.ruleSettings.get(a)) },
  "allowedOrigins.set": { need: "configure", audit: snap((s, a) => s.origins.view(a)) },
  "allowedOrigins.allow": { need: "configure", audit: snap((s, a) => s.origins.view(a)) },
  "scoreThresholds.put": { need: "configure", audit: snap((s, a) => s.scoreThresholds.get(a)) },
  "scoreThresholds.reset": {
    need: "configure",
    audit: snap((s, a) => s.scoreThresholds.get(a)),
  },
  "scoreModels.propose": { need: "configure", audit: "event" },
  "scoreModels.adopt": { need: "configure", audit: snap(activeModel), target: byId },
  "scoreModels.rollback": { need: "configure", audit: snap(activeModel) },
  "stripe.loadDemo": { need: "configure", audit: "event" },
  "stripe.removeDemo": { need: "configure", audit: "event" },
  "stripe.startImport": { need: "configure", audit: true },
  "apiKeys.create": { need: "configure", audit: true },
  "apiKeys.revoke": { need: "configure", audit: true, target: byId },
  "webhooks.createEndpoint": { need: "configure", audit: true },
  "webhooks.enableEndpoint": { need: "configure", audit: true, target: byId },
  "webhooks.removeEndpoint": { need: "configure", audit: true, target: byId },
  "webhooks.resend": { need: "configure", audit: true, target: byId },

  // The team.
  "team.invite": { need: "team", audit: true },
  "team.revokeInvite": { need: "team", audit: true, target: byId },
  "team.changeRole": { need: "team", audit: true },
  "team.remove": { need: "team", audit: true },
  "team.leave": { need: "self", audit: "event" },
  "team.acceptInvite": { need: "self" },
  "team.invitePreview": { need: "public" },
  "team.transferOwnership": { need: "own", audit: true },
  "security.put": { need: "own", audit: snap((s, a) => s.security.get(a)) },

  // End users' data rights and the account's own data (docs/privacy.md).
  "endUsers.preview": { need: "review" },
  "endUsers.export": { need: "review", audit: result(endUserSummary) },
  "endUsers.erase": { need: "configure", audit: result(endUserSummary) },
  "retention.get": { need: "read" },
  "retention.put": { need: "own", audit: snap((s, a) => s.retention.get(a)) },
  "account.exportConfig": { need: "configure", audit: "event" },
  // Before: the sections the file carries as they were; after: as imported (export-shaped).
  "account.importConfig": {
    need: "own",
    audit: snap((s, a, input: unknown) => s.accountData.sectionsOf(a, input)),
  },
  "account.delete": { need: "own" },

  // A merchant's backend, with a secret API key.
  "screening.screen": { need: "apiKey" },
  "labelsApi.create": {
    need: "apiKey",
    audit: true,
    target: (input: { subject_id?: string }) => input?.subject_id,
  },
  "screeningsApi.get": { need: "apiKey" },
  "screeningsApi.decide": { need: "apiKey", audit: true, target: byId },
  "chargesApi.get": { need: "apiKey" },
  "chargesApi.decide": { need: "apiKey", audit: true, target: byId },
  "collect.token": { need: "public" },
  "endUsersApi.export": { need: "apiKey", audit: result(endUserSummary) },
  "endUsersApi.erase": { need: "apiKey", audit: result(endUserSummary) },
};

async function activeModel(services: Services, accountId: string) {
  return { in_force: (await services.scoreModels.list(accountId)).in_force };
}

export type Call = {
  services: Services;
  caller: Caller | null;
  session: ValidSession | null;
  ip: string;
};

/**
 * The caller the operation lets through, or its error: 401 without a session (or key), 401
 * for a session still owing its second factor, 403 when the account requires a second factor
 * the member has not set up, 403 for a role without the permission.
 */
export function admit(name: string, call: Call): Caller | null {
  const operation = OPERATIONS[name];
  if (!operation) throw new AppError("FORBIDDEN", `No access rule names ${name}.`);
  const { need } = operation;
  if (need === "public") return call.caller;
  if (need === "apiKey") return secretKeyCaller(call.caller);
  const { session, caller } = call;
  if (caller?.via !== "session" || !session) {
    throw new AppError("UNAUTHORIZED", MESSAGES.signInRequired);
  }
  if (need === "signingIn") return caller;
  if (session.pendingTwoFactor) throw new AppError("UNAUTHORIZED", MESSAGES.twoFactorPending);
  if (need === "self") return caller;
  if (session.mustEnrolTwoFactor) {
    throw new AppError("FORBIDDEN", MESSAGES.twoFactorRequiredByAccount);
  }
  if (!can(caller.role, need)) throw new AppError("FORBIDDEN", MESSAGES.forbiddenForRole);
  return caller;
}

/** Lets the call in (or refuses it), runs it, and writes the audit event of a change. */
export async function pass<T>(
  name: string,
  call: Call,
  input: unknown,
  run: () => Promise<T>,
): Promise<T> {
  const caller = admit(name, call);
  const operation = OPERATIONS[name] as Operation;
  const { audit } = operation;
  if (!audit || !caller) return run();
  const snapshot = typeof audit === "object" && "snapshot" in audit ? audit.snapshot : null;
  const shape = typeof audit === "object" && "result" in audit ? audit.result : null;
  const read = () => (snapshot as Snapshot)(call.services, caller.accountId, input as never);
  const before = snapshot ? await read() : undefined;
  const output = await run();
  await call.services.audit.record({
    accountId: caller.accountId,
    actor: actorOf(caller),
    ip: call.ip,
    action: name,
    target: operation.target?.(input as never) ?? null,
    before,
    after: snapshot
      ? await read()
      : shape
        ? bounded(shape(output as never))
        : audit === true
          ? bounded(input)
          : undefined,
  });
  return output;
}

/** Past these, an input is cut short in its audit event (it passed validation already). */
const BOUNDS = { depth: 6, keys: 50, items: 100, chars: 1000 };

/**
 * The input as the audit event keeps it: at most six levels deep, 50 keys, 100 items and
 * 1,000 characters a string. The gate sees the input as sent, before a procedure's schema
 * reads it; one that took no input would otherwise keep whatever was sent beside it.
 */
export function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    return value.length > BOUNDS.chars ? `${value.slice(0, BOUNDS.chars)}…` : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= BOUNDS.depth) return "…";
  if (Array.isArray(value)) {
    return value.slice(0, BOUNDS.items).map((item) => bounded(item, depth + 1));
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .slice(0, BOUNDS.keys)
      .map(([key, item]) => [key, bounded(item, depth + 1)]),
  );
}
