/**
 * Posts one signed delivery over HTTP(S), connecting only where guardedLookup allows, never
 * following redirects, and giving up after a timeout. Resolves with the status, or an error.
 */
import http from "node:http";
import https from "node:https";
import { guardedLookup } from "./ssrf.ts";

const TIMEOUT_MS = 10_000;

export type SendResult = { status: number | null; error: string | null };

export function createWebhookSender({ allowPrivate }: { allowPrivate: boolean }) {
  const lookup = guardedLookup(allowPrivate);
  return (url: string, body: string, headers: Record<string, string>): Promise<SendResult> =>
    new Promise((resolve) => {
      const target = new URL(url);
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
          timeout: TIMEOUT_MS,
        },
        (response) => {
          response.resume();
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            resolve({ status, error: ok ? null : `HTTP ${status}` });
          });
        },
      );
      request.on("timeout", () =>
        request.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)),
      );
      request.on("error", (error) => resolve({ status: null, error: error.message.slice(0, 300) }));
      request.end(body);
    });
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
