/** Refetches everything the review queue shows (items, count) after a change. */
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

export function useInvalidateQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
}
