/**
 * Plays the traffic against Warden in simulated time order, one event at a time (each
 * screening's counts include every earlier one, as in production): the actor's Stripe history
 * first when the event carries it (signed webhooks to the merchant's endpoint), then the
 * collector when the page ran warden.js (from the browser's address, through X-Forwarded-For,
 * with the browser's own headers), then the screening with its token, as the merchant's
 * backend would. Records each answer with
 * its label.
 */
import type { ScreenReason, ScreenResult } from "../../../shared/schemas/screening.ts";
import { SHOP } from "../end-users.ts";
import { postExact } from "../exact-post.ts";
import { browserHeaders } from "./browser-headers.ts";
import type { SimEvent } from "./journey.ts";
import { deliverHistory } from "./stripe-history.ts";
import type { Merchant, Warden } from "./warden.ts";

export type Outcome = {
  /** When it happened, in ms of simulated time from the start (the event's own `at`). */
  at: number;
  population: string;
  attack: boolean;
  /** An attack's payoff event (ordinary events: always true). */
  payoff: boolean;
  actor: string;
  type: string;
  decision: ScreenResult["decision"];
  reasons: Pick<ScreenReason, "rule" | "action" | "message">[];
  /** The screening's id (labels and review decisions name it). */
  id: string;
  /** The risk score and the value of each signal that had something to say (npm run fit). */
  score: number;
  signals: Record<string, number>;
};

/**
 * What warden.js posts to the collector: its token. The request carries the browser's own
 * headers (browser-headers.ts; exactly those: fetch would add an Accept-Language) and comes
 * through the proxy in front of Warden, which names the browser's address and https (the
 * Warden started here trusts one proxy, TRUST_PROXY=1; so must one given with --url).
 */
async function collected(warden: Warden, merchant: Merchant, event: SimEvent): Promise<string> {
  const response = await postExact(
    `${warden.base}/api/v1/collect?key=${encodeURIComponent(merchant.publishableKey)}`,
    {
      "content-type": "text/plain;charset=UTF-8",
      origin: SHOP,
      "x-forwarded-for": event.screen.ip ?? "",
      "x-forwarded-proto": "https",
      ...(event.collectHeaders ?? browserHeaders(event.screen.user_agent, event.collect?.timezone)),
    },
    JSON.stringify(event.collect),
  );
  if (response.status !== 200) throw new Error(`collect: HTTP ${response.status} ${response.text}`);
  return (JSON.parse(response.text) as { token: string }).token;
}

/** The merchant's backend screening the event (with the collector's token, if any). */
async function screened(
  warden: Warden,
  merchant: Merchant,
  event: SimEvent,
  signals: string | undefined,
): Promise<ScreenResult> {
  const response = await fetch(`${warden.base}/api/v1/screen`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${merchant.secretKey}`,
    },
    body: JSON.stringify({ ...event.screen, ...(signals ? { signals } : {}) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`screen ${JSON.stringify(event.screen)}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as ScreenResult;
}

export async function drive(
  warden: Warden,
  merchant: Merchant,
  events: readonly SimEvent[],
  start: number,
  onProgress: (done: number) => void = () => {},
  /** Called before the first event of each simulated minute, with the clock at the event (alerts). */
  everyMinute?: () => Promise<void>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let minute = Number.NEGATIVE_INFINITY;
  for (const [i, event] of events.entries()) {
    warden.clock.set(start + event.at);
    if (everyMinute && Math.floor((start + event.at) / 60_000) > minute) {
      minute = Math.floor((start + event.at) / 60_000);
      await everyMinute();
    }
    if (event.history) {
      const now = Math.floor((start + event.at) / 1000);
      await deliverHistory(warden.base, merchant.webhook, event.history, now);
    }
    const signals = event.collect ? await collected(warden, merchant, event) : undefined;
    const answer = await screened(warden, merchant, event, signals);
    outcomes.push({
      at: event.at,
      population: event.population,
      attack: event.attack,
      payoff: event.payoff ?? true,
      actor: event.actor,
      type: event.screen.type,
      decision: answer.decision,
      reasons: answer.reasons.map(({ rule, action, message }) => ({ rule, action, message })),
      id: answer.id,
      score: answer.score,
      signals: Object.fromEntries(
        answer.contributions.flatMap((c) => (c.value === undefined ? [] : [[c.signal, c.value]])),
      ),
    });
    if (i % 25 === 0) onProgress(i + 1);
  }
  onProgress(events.length);
  return outcomes;
}
