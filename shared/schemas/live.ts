/**
 * The console's live pages: what GET /api/live tells a signed-in member (which kind of data
 * of their account changed, never the data itself), and the dashboard's chart of decisions
 * per minute over the last hour (screenings.perMinute).
 */
import { z } from "zod";

/** What changed: screenings stored, charges ingested, review items settled. */
export const LIVE_TOPICS = ["screenings", "charges", "review"] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** The data of one `event: change` on the stream. */
export const ZLiveChange = z.object({ topic: z.enum(LIVE_TOPICS) });
export type LiveChange = z.infer<typeof ZLiveChange>;

/** Minutes the chart shows, the current one last. */
export const PER_MINUTE_SPAN = 60;

const count = z.number().int().min(0);

/** One minute's decisions (UTC), from `minute` to a minute later. */
export const ZDecisionMinute = z.object({
  minute: z.iso.datetime(),
  allow: count,
  review: count,
  block: count,
});
export type DecisionMinute = z.infer<typeof ZDecisionMinute>;

export const ZDecisionsPerMinute = z.object({
  /** Oldest first; every minute of the span, empty ones included. */
  minutes: z.array(ZDecisionMinute).length(PER_MINUTE_SPAN),
  totals: z.object({ allow: count, review: count, block: count }),
});
export type DecisionsPerMinute = z.infer<typeof ZDecisionsPerMinute>;
