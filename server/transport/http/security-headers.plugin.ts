/**
 * Security headers on every response (helmet): a CSP that allows only our own scripts, styles
 * and API (the Vite build has no inline script or style), no framing, nosniff, a strict
 * Referrer-Policy (reset links carry tokens in their query), and HSTS when PUBLIC_URL is
 * https. /api/docs sets its own, stricter policy (openapi.plugin.ts).
 *
 * helmet's middleware is built once here: the Fastify wrapper (@fastify/helmet) built it
 * again on every request, parsing the CSP each time: ~8% of a Stripe webhook's CPU (decision 009).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

export const securityHeadersPlugin = fp<{ https: boolean }>(
  async (app: FastifyInstance, { https }) => {
    const setHeaders = helmet({
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
    app.addHook("onRequest", (request, reply, done) => {
      setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
);
