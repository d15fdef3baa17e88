import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../../server/transport/trpc/app.router.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
    },
  });
}

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    // maxItems matches the server's MAX_BATCH_SIZE (trpc.plugin.ts): a longer batch is a 400.
    links: [httpBatchLink({ url: "/trpc", maxItems: 10 })],
  });
}

/** What a person reads when the browser could not reach the server at all. */
export const NETWORK_ERROR = "Can't reach Warden — check your connection and try again.";

/**
 * A request that never got an answer: fetch rejects with a TypeError whose words depend on
 * the browser ("Failed to fetch", "NetworkError when attempting…", "Load failed").
 */
function isNetworkFailure(error: unknown): boolean {
  const cause = error instanceof TRPCClientError ? error.cause : error;
  return (
    cause instanceof TypeError &&
    /failed to fetch|networkerror|load failed|network request failed/i.test(cause.message)
  );
}

/** The message to show a person for a failed call. */
export function errorMessage(error: unknown): string {
  if (isNetworkFailure(error)) return NETWORK_ERROR;
  if (error instanceof TRPCClientError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Please try again.";
}

/** Per-field messages from a 400, keyed by field path. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const issues = (error.data as { issues?: { path: string; message: string }[] } | undefined)
    ?.issues;
  return Object.fromEntries((issues ?? []).map((issue) => [issue.path, issue.message]));
}
