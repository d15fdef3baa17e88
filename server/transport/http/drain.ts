/**
 * Before answering 413, read and discard the rest of the request body (up to a limit), so a
 * client that is still sending reads our answer. Closing a socket with unread data in it
 * makes the kernel reset the connection: Node's fetch (and so warden/client, which then fails
 * open) could see EPIPE or ECONNRESET instead of the status.
 */
import type { IncomingMessage } from "node:http";

const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
const DRAIN_MAX_MS = 5_000;

/** Resolves true once the body has ended, false when it went past the byte or time limit. */
export function drainRequest(
  raw: IncomingMessage,
  maxBytes = DRAIN_MAX_BYTES,
  maxMs = DRAIN_MAX_MS,
): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(raw.readableEnded);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onError);
      raw.off("close", onError);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), maxMs);
    raw.on("data", onData);
    raw.once("end", onEnd);
    raw.once("error", onError);
    raw.once("close", onError);
    raw.resume();
  });
}
