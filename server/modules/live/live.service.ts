/**
 * The console's live pages (GET /api/live): tells each open page of an account that its
 * screenings, charges or review queue changed, so the page reads them again. Only the kind of
 * change travels, never the data: the page reads that through its usual, checked queries.
 *
 * A change goes through the change feed, so a screening stored by one instance reaches a page
 * connected to another (LISTEN/NOTIFY on PostgreSQL). Both ends coalesce per account and kind:
 * an instance publishes at most one change per interval (a thousand screenings a second are
 * not a thousand NOTIFYs), and a page hears at most one per interval, however many instances
 * published. Telling of a change is a map lookup: it never queries or awaits, as the screening
 * path calls it for every screening.
 *
 * A stream lasts no longer than what let it in: its session (logout, expiry, a password
 * reset), the member's place in the account (removed, left, the account deleted) and the
 * account's demand for a second factor the member lacks. Each of these is a row that many
 * paths change (another instance, housekeeping, a cascade); rather than have every one of
 * them announce itself on the change feed, where a path that forgets would leave streams
 * open, the instance reads again, every RECHECK_MS and in one query, the sessions of all its
 * open streams, and ends each stream its page's gate would no longer admit. That is one
 * indexed read a second per instance while any stream is open, whatever their number, and
 * none while none is; it needs no new topic, and works alike on both databases and across
 * instances, since it reads the rows every request reads.
 */
import { LIVE_TOPICS, type LiveTopic } from "../../../shared/schemas/live.ts";
import type { ChangeFeed } from "../../db/change-feed.ts";
import { TOPICS } from "../../db/change-topics.ts";
import { AppError } from "../../lib/app-error.ts";
import type { ValidSession } from "../auth/session.service.ts";
import { type Coalescer, createCoalescer } from "./coalesce.ts";

/** At most one change per account and kind per this many milliseconds, each way. */
export const COALESCE_MS = 250;
/** Live streams one member may hold open on one instance (tabs, windows). */
export const STREAMS_PER_MEMBER = 5;

const FEED_TOPIC: Record<LiveTopic, string> = {
  screenings: TOPICS.liveScreenings,
  charges: TOPICS.liveCharges,
  review: TOPICS.liveReview,
};
const LIVE_TOPIC = new Map<string, LiveTopic>(
  LIVE_TOPICS.map((topic) => [FEED_TOPIC[topic], topic]),
);

/** How often the sessions of open streams are read again: a revoked one ends within this. */
export const RECHECK_MS = 1_000;

/** One open page: told of each change, ended when the server closes or its holder goes. */
export type LiveStream = {
  send(topic: LiveTopic): void;
  end(): void;
  /** Whether the holder may still watch, by their session as it stands (null: it ended). */
  allows(session: ValidSession | null): boolean;
};
/** Who holds a stream: the account it watches, the member (user) and their session. */
export type LiveMember = { accountId: string; userId: string; sessionId: string };

type Deps = {
  changes: ChangeFeed;
  /** Sessions by id as they stand now (auth's `current`); missing ones ended. */
  sessions: (ids: string[]) => Promise<Map<string, ValidSession>>;
  coalesceMs?: number;
  recheckMs?: number;
  streamsPerMember?: number;
  log?: { warn(obj: object, msg: string): void };
};

export function createLiveService({
  changes,
  sessions,
  coalesceMs = COALESCE_MS,
  recheckMs = RECHECK_MS,
  streamsPerMember = STREAMS_PER_MEMBER,
  log,
}: Deps) {
  const byAccount = new Map<string, Set<LiveStream>>();
  const perMember = new Map<string, number>();
  const sessionOf = new Map<LiveStream, string>();
  let recheckTimer: NodeJS.Timeout | null = null;
  let closed = false;
  const warn = (what: string) => (error: unknown) => log?.warn({ err: error }, what);

  const each = <T>(make: (topic: LiveTopic) => T) =>
    Object.fromEntries(LIVE_TOPICS.map((topic) => [topic, make(topic)])) as Record<LiveTopic, T>;

  // Outgoing: to the feed, once per interval per account and kind.
  const publish: Record<LiveTopic, Coalescer> = each((topic) =>
    createCoalescer(
      coalesceMs,
      (accountId) => changes.publish({ topic: FEED_TOPIC[topic], accountId }),
      warn("live change not published"),
    ),
  );
  // Incoming: to the account's streams, once per interval per account and kind.
  const deliver: Record<LiveTopic, Coalescer> = each((topic) =>
    createCoalescer(
      coalesceMs,
      (accountId) => {
        for (const stream of byAccount.get(accountId) ?? []) stream.send(topic);
      },
      warn("live change not sent to a page"),
    ),
  );

  const unsubscribe = changes.subscribe(({ topic, accountId }) => {
    // The feed reconnected and may have missed changes: every page reads everything again.
    if (topic === "*") {
      for (const account of byAccount.keys()) {
        for (const t of LIVE_TOPICS) deliver[t].hit(account);
      }
      return;
    }
    const live = LIVE_TOPIC.get(topic);
    if (live && byAccount.has(accountId)) deliver[live].hit(accountId);
  });

  /** Ends each stream whose holder's session no longer admits it (see the module's note). */
  async function recheck() {
    // Only the streams open now: one opened while the read is under way is not in it.
    const checked = [...sessionOf];
    try {
      if (checked.length === 0) return;
      const current = await sessions([...new Set(checked.map(([, id]) => id))]);
      for (const [stream, id] of checked) {
        if (sessionOf.has(stream) && !stream.allows(current.get(id) ?? null)) stream.end();
      }
    } catch (error) {
      // A failed read says nothing about the sessions: the streams stay, and the next read
      // decides (each stream carries only topic names; every read a page makes is checked).
      warn("live streams' sessions not read again")(error);
    } finally {
      recheckTimer = null;
      scheduleRecheck();
    }
  }

  function scheduleRecheck() {
    if (recheckTimer || closed || sessionOf.size === 0) return;
    recheckTimer = setTimeout(recheck, recheckMs);
    recheckTimer.unref();
  }

  function endAll() {
    const streams = [...byAccount.values()].flatMap((set) => [...set]);
    for (const stream of streams) stream.end();
  }

  return {
    /** An account's screenings, charges or review changed (after the write committed). */
    changed(accountId: string, topic: LiveTopic): void {
      if (!closed) publish[topic].hit(accountId);
    },

    /**
     * Adds a page's stream; the returned function removes it (call it once the stream ends).
     * TOO_MANY_REQUESTS when the member already holds the most streams allowed.
     */
    open(member: LiveMember, stream: LiveStream): () => void {
      if (closed) throw new AppError("TOO_MANY_REQUESTS", "The server is shutting down.");
      const held = perMember.get(member.userId) ?? 0;
      if (held >= streamsPerMember) {
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `You have ${streamsPerMember} live pages open already. Close one of them to see live updates here.`,
          { retryAfterSeconds: 30 },
        );
      }
      perMember.set(member.userId, held + 1);
      const streams = byAccount.get(member.accountId) ?? new Set<LiveStream>();
      byAccount.set(member.accountId, streams);
      streams.add(stream);
      sessionOf.set(stream, member.sessionId);
      scheduleRecheck();
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        sessionOf.delete(stream);
        const left = (perMember.get(member.userId) ?? 1) - 1;
        if (left > 0) perMember.set(member.userId, left);
        else perMember.delete(member.userId);
        streams.delete(stream);
        if (streams.size === 0 && byAccount.get(member.accountId) === streams) {
          byAccount.delete(member.accountId);
        }
      };
    },

    /** Open streams, in all (metrics, tests). */
    streamCount(): number {
      let n = 0;
      for (const set of byAccount.values()) n += set.size;
      return n;
    },

    /** Ends every open stream (their pages reconnect); the service goes on. */
    endAll,

    /** Ends every stream and stops: for the server's shutdown. */
    close(): void {
      closed = true;
      if (recheckTimer) clearTimeout(recheckTimer);
      recheckTimer = null;
      endAll();
      unsubscribe();
      for (const t of LIVE_TOPICS) {
        publish[t].clear();
        deliver[t].clear();
      }
    },
  };
}

export type LiveService = ReturnType<typeof createLiveService>;
