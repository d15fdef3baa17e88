/**
 * One operation, declared once: what it needs, what it audits, its input and output schemas,
 * the one call it makes, and where it is exposed: as a tRPC procedure (unless `trpc: false`)
 * and, with `rest`, as a REST route. The tRPC router (trpc/procedures.ts), the REST routes and
 * their OpenAPI description (rest/route.ts) and the operations table (operations/index.ts) are
 * all built from these rows (decision 031), so no transport repeats what another declares.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Permission } from "../../shared/team/roles.ts";
import type { Caller } from "../lib/caller.ts";
import type { ValidSession } from "../modules/auth/session.service.ts";
import type { Services } from "../services.ts";
import type { SessionCookie } from "./http/session.plugin.ts";

/**
 * What a call needs: a permission in the account (a signed-in member with a role that has
 * it), `self` (any signed-in member, acting on their own sign-in: two-factor, password,
 * switching accounts), `signingIn` (a session still owing its second factor may call it),
 * `apiKey` (a merchant's backend with a secret key) or `public` (anyone).
 */
export type Need = Permission | "self" | "signingIn" | "apiKey" | "public";

type Snapshot = (services: Services, accountId: string, input: never) => Promise<unknown>;

/** What the gate (access.ts) reads of an operation: its name, its need and its audit. */
export type AccessRule = {
  name: string;
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
  /**
   * The account the audit event is written in, when it is not the caller's: a switch is
   * written in the account entered (the call has checked the caller belongs there).
   */
  auditIn?: (input: never) => string | undefined;
};

type Schema = z.ZodType | undefined;
/** What a part of the input is once its schema has read it. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Session<N> = [N] extends ["public" | "apiKey"] ? ValidSession | null : ValidSession;

/** What a handler is handed: the caller the gate let in (never null past a check), its session. */
export type Handed<N extends Need = Need, A = unknown> = {
  services: Services;
  caller: [N] extends ["public"] ? Caller | null : Caller;
  session: Session<N>;
  ip: string;
  /** The console's cookie; REST answers with a token instead, so there it does nothing. */
  sessionCookie: SessionCookie;
  /** What the REST route's `admit` returned (the collector's key and budgets). */
  admitted: A;
};

type Parts<P, Q, B> = { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> };

/** Where the operation answers over REST, under /api, and what its docs say. */
export type Rest<
  N extends Need = Need,
  I = unknown,
  P = Schema,
  Q = Schema,
  B = Schema,
  A = unknown,
> = {
  method: "GET" | "PUT" | "POST" | "DELETE";
  path: string;
  tag: string;
  summary: string;
  /**
   * The parts of the request and their schemas. Without any, the operation's input is the
   * path's parameters when the path has some, the query of a GET, the body otherwise.
   */
  params?: P;
  query?: Q;
  body?: B;
  /** The operation's input from the parsed parts; the parts merged otherwise. */
  input?: (parts: Parts<P, Q, B>) => I;
  /** The largest body taken, in bytes (Fastify's bodyLimit: 413 past it); 1 MiB otherwise. */
  bodyLimit?: number;
  /**
   * Checks that must come after the path and query and before the body is read (the
   * collector's key, Origin and budgets); what it returns reaches the handler as `admitted`.
   */
  admit?: (
    parts: { services: Services; params: Parsed<P>; query: Parsed<Q>; caller: Handed<N>["caller"] },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<A>;
  /** The answer's schema when it is not the operation's output; null for 204 No Content. */
  response?: z.ZodType | null;
  /** The REST answer from the operation's output, when the two differ. */
  answer?: (output: never) => unknown;
  /** REST's own call, where the transports truly differ (a token, not a cookie). */
  handler?: (handed: Handed<N, A>, input: I) => MaybePromise<unknown>;
  /** Error statuses besides 400 (with input) and 401, for the docs. */
  errors?: number[];
  /** One example each of the body and the answer, for the docs. */
  examples?: { body?: unknown; response?: unknown };
  /** OpenAPI fields that say more than the zod schema can (merged over the generated ones). */
  openapi?: Record<string, unknown>;
};

type OutputIn<O, R> = O extends z.ZodType ? z.input<O> : R;
type MaybePromise<T> = T | Promise<T>;

/** One row as the adapters read it (the handler's types are checked where `op` declares it). */
export type Operation<
  N extends Need = Need,
  K extends "query" | "mutation" = "query" | "mutation",
  I extends Schema = Schema,
  O extends Schema = Schema,
  Out = unknown,
  T extends boolean = boolean,
> = Omit<AccessRule, "name" | "need"> & {
  need: N;
  /** A tRPC query (read) or mutation (change); REST's method is its own. */
  kind: K;
  input?: I;
  output?: O;
  /** The one call, with the input as its schema read it. */
  handler: (handed: never, input: never) => MaybePromise<Out>;
  /** false: REST only, no procedure (a backend's own route). */
  trpc?: T;
  rest?: Omit<Rest, "input" | "admit" | "answer" | "handler"> & {
    input?: (parts: never) => unknown;
    admit?: (parts: never, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    answer?: (output: never) => unknown;
    handler?: (handed: never, input: never) => MaybePromise<unknown>;
  };
};

/** A row of an area's table, its handler and REST parts typed against its own schemas. */
export function op<
  N extends Need,
  K extends "query" | "mutation",
  R,
  I extends Schema = undefined,
  O extends Schema = undefined,
  T extends boolean = true,
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  A = undefined,
>(
  row: Omit<AccessRule, "name" | "need"> & {
    need: N;
    kind: K;
    input?: I;
    output?: O;
    handler: (handed: Handed<N, A>, input: Parsed<I>) => MaybePromise<OutputIn<O, R>>;
    trpc?: T;
    rest?: Rest<N, Parsed<I>, P, Q, B, A>;
  },
): Operation<N, K, I, O, OutputIn<O, R>, T> {
  return row as unknown as Operation<N, K, I, O, OutputIn<O, R>, T>;
}

/** An area's rows by procedure name (the operation is `<area>.<name>`). */
export type Area = Record<string, Operation>;

const snap = (snapshot: Snapshot) => ({ snapshot });
const result = (shape: (output: never) => unknown) => ({ result: shape });
export const audits = { snap, result };

/** The audit target of an input that names a thing by id. */
export const byId = (input: { id?: string }) => input?.id;
