/**
 * The request a piece of work belongs to, carried across awaits, timers and callbacks
 * (AsyncLocalStorage). The logger stamps its id on every line written meanwhile, by whichever
 * logger (logger.ts), so a service's line that a request caused names the request. Work that
 * several requests share (a batch, a background worker's run) carries the id of the request
 * that started it; work started by a timer carries none.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The request's id and its own logger (whose lines carry the id already). */
export type RequestContext = { id: string; log: object };

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn`, and everything it starts, as part of this request. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request the current work belongs to, if any. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
