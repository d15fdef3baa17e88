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
