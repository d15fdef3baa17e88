/**
 * Keeps a console page current: listens on GET /api/live (server-sent events) and, when the
 * account's screenings, charges or review queue change, reads again the queries that show
 * them. A lost stream is opened again after 1 s, 2 s, 4 s … up to 30 s (reset once it opens),
 * and everything is read again then, as changes may have been missed meanwhile. Stops when
 * the page unmounts.
 */
import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type LiveTopic, ZLiveChange } from "../../../../shared/schemas/live.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { reconnectDelay } from "./backoff.ts";
import { serially } from "./serially.ts";

export const LIVE_URL = "/api/live";

/** Connecting for the first time, connected, or cut off and trying again. */
export type LiveState = "connecting" | "live" | "reconnecting";

export function useLiveUpdates(topics: readonly LiveTopic[]): LiveState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  const wanted = [...new Set(topics)].sort().join(",");

  useEffect(() => {
    // What each kind of change may alter; only the queries on screen are fetched again.
    const shows: Record<LiveTopic, QueryKey[]> = {
      screenings: [trpc.screenings.pathKey(), trpc.review.pathKey()],
      charges: [trpc.dashboard.pathKey(), trpc.review.pathKey()],
      review: [trpc.review.pathKey(), trpc.screenings.pathKey(), trpc.dashboard.pathKey()],
    };
    const refetch = new Map(
      (wanted.split(",") as LiveTopic[]).map((topic) => [
        topic,
        serially(() =>
          Promise.all(shows[topic].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
        ),
      ]),
    );
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    /** Cut off since the page read its data: changes may have been missed. */
    let missed = false;
    let stopped = false;

    function connect() {
      const current = new EventSource(LIVE_URL);
      source = current;
      current.onopen = () => {
        failures = 0;
        setState("live");
        if (missed) for (const run of refetch.values()) run();
        missed = false;
      };
      current.addEventListener("change", (event) => {
        const change = ZLiveChange.safeParse(safeJson((event as MessageEvent<string>).data));
        if (change.success) refetch.get(change.data.topic)?.();
      });
      // EventSource would retry at its own pace; it is closed and reopened with backoff.
      current.onerror = () => {
        current.close();
        if (stopped || source !== current) return;
        source = null;
        missed = true;
        setState("reconnecting");
        retry = setTimeout(connect, reconnectDelay(failures++));
      };
    }

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [wanted, trpc, queryClient]);

  return state;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
