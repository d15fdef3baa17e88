import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "./trpc.ts";

/** The signed-in user, or null; `isLoading` while the session is being read at startup. */
export function useSession() {
  const trpc = useTRPC();
  const query = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  return { user: query.data ?? null, isLoading: query.isPending };
}

/** Re-reads the session after it changed (login, logout, password reset). */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  // Everything cached belonged to the previous session: reset it all, refetch what is shown.
  return useCallback(() => queryClient.resetQueries(), [queryClient]);
}

/**
 * Re-reads only who is signed in, keeping every other cached answer: after a change that may
 * apply to oneself (requiring two-factor sign-in), the form that made it stays on screen to
 * say it was saved, instead of reloading with everything else.
 */
export function useRereadSession() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
    [queryClient, trpc],
  );
}
