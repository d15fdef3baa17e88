/**
 * Posts one signed delivery over HTTP(S), connecting only where guardedLookup allows, never
 * following redirects. An attempt has a hard deadline for all of it (lookup, connect, headers
 * and body), not an idle timeout, so a receiver that trickles a byte now and then is cut at
 * the deadline; and at most BODY_CAP bytes of the answer are read, then the socket is dropped.
 * Resolves with the status, or an error (a status with an error: the answer was cut).
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardedLookup, isPrivateAddress } from "./ssrf.ts";

const DEADLINE_MS = 10_000;
/** Nothing of the answer is used but its status: enough to reuse the connection, no more. */
const BODY_CAP = 4096;

export type SendResult = { status: number | null; error: string | null };

export function createWebhookSender({
  allowPrivate,
  deadlineMs = DEADLINE_MS,
}: {
  allowPrivate: boolean;
  /** The whole attempt's limit (10 s); tests may shorten it. */
  deadlineMs?: number;
}) {
  const lookup = guardedLookup(allowPrivate);
  const seconds = `${deadlineMs / 1000} s`;
  return (
    url: string,
    body: string,
    headers: Record<string, string>,
    /** Aborts the attempt (the worker stopping); it then resolves with an error. */
    signal?: AbortSignal,
  ): Promise<SendResult> =>
    new Promise((resolve) => {
      const target = new URL(url);
      // Node skips the lookup for an IP literal, so guardedLookup never sees it: check here,
      // at every send, since an endpoint saved while private addresses were allowed stays.
      const literal = target.hostname.replace(/^\[|\]$/g, "");
      if (!allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
        resolve({
          status: null,
          error: `${literal} is a private address: refused (WEBHOOKS_ALLOW_PRIVATE allows it)`,
        });
        return;
      }
      let status: number | null = null;
      const settle = (result: SendResult) => {
        clearTimeout(deadline);
        resolve(result);
      };
      const deadline = setTimeout(() => {
        const what = status === null ? "no answer" : `HTTP ${status} but the body unfinished`;
        settle({ status, error: `${what} after ${seconds}: cut at the deadline` });
        request.destroy();
      }, deadlineMs);
      const failed = (error: Error) =>
        settle({ status, error: (signal?.aborted ? "stopped" : error.message).slice(0, 300) });
      const request = (target.protocol === "https:" ? https : http).request(
        target,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            "user-agent": "Warden-Webhooks/1",
            ...headers,
          },
          lookup: lookup as never,
          signal,
        },
        (response) => {
          status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const result = { status, error: ok ? null : `HTTP ${status}` };
          let read = 0;
          response.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read <= BODY_CAP) return;
            // The status is all we need: stop reading and drop the connection.
            settle(result);
            request.destroy();
          });
          response.on("end", () => settle(result));
          response.on("error", failed);
        },
      );
      request.on("error", failed);
      request.end(body);
    });
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
