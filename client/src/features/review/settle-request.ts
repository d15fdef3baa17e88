/**
 * Sends one settle with fetch's `keepalive`, so a settle sent as the tab closes (pagehide)
 * still reaches the server; the app's batching client gives no such promise.
 */
import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "../../../../server/transport/trpc/app.router.ts";

const client = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: "/trpc",
      fetch: (url, init) => fetch(url, { ...(init as RequestInit), keepalive: true }),
    }),
  ],
});

export type SettleInput = Parameters<typeof client.review.settle.mutate>[0];

export function sendSettle(input: SettleInput) {
  return client.review.settle.mutate(input);
}
