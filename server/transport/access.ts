/**
 * The one place a call is let in and its change written down. Every operation (a row of
 * operations/<area>.ts, served as a tRPC procedure, a REST route or both) says what it needs;
 * `admit` checks the caller against it (shared/team/roles.ts has which role may do what) and
 * `record` runs the call and, for a change, writes its audit event: who (member or API key),
 * from which IP, what, before and after (secrets masked). Each call is checked once, before
 * its input is read (test/access-sweep.int.test.ts calls every operation as every role).
 */
import { MESSAGES } from "../../shared/messages.ts";
import { can } from "../../shared/team/roles.ts";
import { AppError } from "../lib/app-error.ts";
import { type Caller, secretKeyCaller } from "../lib/caller.ts";
import { actorOf } from "../modules/audit/audit.service.ts";
import type { ValidSession } from "../modules/auth/session.service.ts";
import type { Services } from "../services.ts";
import type { AccessRule } from "./operation.ts";

export type { Need } from "./operation.ts";
export { OPERATIONS } from "./operations/index.ts";

type Snapshotter = (services: Services, accountId: string, input: never) => Promise<unknown>;

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
export function admit(operation: AccessRule | undefined, call: Call): Caller | null {
  if (!operation) throw new AppError("FORBIDDEN", "No access rule names this operation.");
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
  operation: AccessRule | undefined,
  call: Call,
  input: unknown,
  run: (caller: Caller | null) => Promise<T>,
): Promise<T> {
  const caller = admit(operation, call);
  return record(operation as AccessRule, call, caller, input, run);
}

/**
 * Runs a call `admit` has let in as `caller`, and writes the audit event of a change: for a
 * route that must admit before it reads its input (REST), so the check is made once.
 */
export async function record<T>(
  operation: AccessRule,
  call: Call,
  caller: Caller | null,
  input: unknown,
  run: (caller: Caller | null) => Promise<T>,
): Promise<T> {
  const { audit, name } = operation;
  if (!audit || !caller) return run(caller);
  const snapshot = typeof audit === "object" && "snapshot" in audit ? audit.snapshot : null;
  const shape = typeof audit === "object" && "result" in audit ? audit.result : null;
  const read = () => (snapshot as Snapshotter)(call.services, caller.accountId, input as never);
  const before = snapshot ? await read() : undefined;
  const elsewhere = operation.auditIn?.(input as never);
  const accountId = typeof elsewhere === "string" ? elsewhere : caller.accountId;
  const target = operation.target?.(input as never) ?? null;
  // Named before the call, which may delete what it names (a webhook endpoint, a member).
  const targetLabel = await call.services.audit.targetLabel(accountId, name, target, input);
  const output = await run(caller);
  await call.services.audit.record({
    accountId,
    actor: actorOf(caller),
    ip: call.ip,
    action: name,
    target,
    targetLabel,
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
