/**
 * A console page that keeps itself current: it listens for changes (useLiveUpdates) and says
 * so with a small "Live" badge, or "Reconnecting…" while the connection is down.
 */
import type { LiveTopic } from "../../../../shared/schemas/live.ts";
import { type LiveState, useLiveUpdates } from "./use-live-updates.ts";
import "./live.css";

const LABEL: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
};

const TITLE: Record<LiveState, string> = {
  connecting: "Connecting to live updates.",
  live: "This page updates by itself as new data arrives.",
  reconnecting: "Live updates were cut off; trying again.",
};

export function LiveStatus({ state }: { state: LiveState }) {
  return (
    <p className={`live-status live-${state}`} role="status" data-live={state} title={TITLE[state]}>
      <span className="live-dot" aria-hidden="true" />
      {LABEL[state]}
    </p>
  );
}

/** Listens for the page's topics and shows the connection's state. */
export function LiveUpdates({ topics }: { topics: readonly LiveTopic[] }) {
  return <LiveStatus state={useLiveUpdates(topics)} />;
}
