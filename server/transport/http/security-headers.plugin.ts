/**
 * Security headers on every response (helmet): a CSP that allows only our own scripts, styles
 * and API (the Vite build has no inline script or style), no framing, nosniff, a strict
 * Referrer-Policy (reset links carry tokens in their query), and HSTS when PUBLIC_URL is
 * https. /api/docs sets its own, stricter policy (openapi.plugin.ts).
 *
 * helmet's middleware is built once here: the Fastify wrapper (@fastify/helmet) built it
 * again on every request, parsing the CSP each time: ~8% of a Stripe webhook's CPU (decision 009).
 * With this configuration every header is the same on every response, so helmet runs once, at
 * start, and each response gets the headers it set: its eleven middlewares and Node's checks
 * of each setHeader cost a webhook ~4% of its CPU.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

export const securityHeadersPlugin = fp<{ https: boolean }>(
  async (app: FastifyInstance, { https }) => {
    const headers = headersSetBy(helmetFor(https));
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
);

/** helmet as configured for Warden (its middleware). */
export function helmetFor(https: boolean) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        // Only over https: on a plain-http install it would break every asset.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The console needs no cross-origin isolation; these would only get in the way of Stripe.
    crossOriginEmbedderPolicy: false,
  });
}

/** The headers a middleware sets on a response (one that only records them). */
function headersSetBy(
  middleware: (req: never, res: never, next: (error?: unknown) => void) => void,
): Record<string, string | number | string[]> {
  const headers: Record<string, string | number | string[]> = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  middleware({} as never, res as never, (error) => {
    failed = error;
  });
  if (failed) throw failed;
  return headers;
}
