/**
 * `npm run simulate -- --two-hours`: do a merchant's labels teach the risk score? One merchant
 * with configuration "score" (every rule on, its own thresholds for every event type at the
 * weights' defaults: the false-positive ceilings). Hour 1 (the world's mix plus the attack the
 * default weights never saw, unseen-attack.ts) is screened with the shipped weights, then
 * labelled as a merchant would (labelsOf); Warden fits weights on those labels, the proposal
 * is adopted, and hour 2 (another seed, the same kinds of traffic, the same merchant the next
 * day: its history within reach of the 30-day windows) is screened with them. The figures of
 * both hours side by side: two-hours-report.ts.
 */
import type { ScoreModelView } from "../../../shared/schemas/score-models.ts";
import type { ThresholdsView } from "../../../shared/schemas/score-thresholds.ts";
import type { ScreenType } from "../../../shared/schemas/screening.ts";
import type { Thresholds } from "../../../shared/score/weights.ts";
import { drive, type Outcome } from "./driver.ts";
import { HOUR, MINUTE, type SimEvent } from "./journey.ts";
import { buildTraffic, type MixOptions } from "./mix.ts";
import { type ConfigurationFigures, figuresOf } from "./report.ts";
import { rng } from "./rng.ts";
import { leadOf, targetsOf } from "./run.ts";
import {
  ALLOWED_SAMPLE,
  CONFIRMED_BLOCKS,
  type LabelPlan,
  labelsOf,
  postLabels,
} from "./two-hours-labels.ts";
import { relayPromoFarm } from "./unseen-attack.ts";
import { type Api, type Configuration, setUpMerchant, type Warden } from "./warden.ts";

/** The unseen attack, and its weight on the attack side in both hours (promo_stuffing's own). */
export const UNSEEN = relayPromoFarm.name;
export const UNSEEN_WEIGHT = 12;
/** Every rule on; twoHours() then sets the merchant's own thresholds (atTheCeilings). */
export const SCORE_CONFIGURATION: Configuration = { name: "score", templates: [], allRules: true };

/**
 * Hour 2's accounts are new accounts: the simulator names users by population and group
 * number, so another seed would reuse hour 1's user ids. Prefixes every user id (and the
 * referral codes and referrers that name them).
 */
export function namespaced(traffic: readonly SimEvent[], prefix: string): SimEvent[] {
  const rename = (id: string) => `${prefix}${id}`;
  return traffic.map((event) => {
    const { user_id, referrer_user_id, referral_code } = event.screen;
    const screen = { ...event.screen };
    if (user_id !== undefined) screen.user_id = rename(user_id);
    if (referrer_user_id !== undefined) screen.referrer_user_id = rename(referrer_user_id);
    if (referral_code !== undefined)
      screen.referral_code = referrer_user_id
        ? referral_code.split(referrer_user_id).join(rename(referrer_user_id))
        : `${prefix}${referral_code}`;
    return { ...event, actor: `${prefix}${event.actor}`, screen };
  });
}

/** How often each signal speaks on these events, and its mean value when it does. */
export type SignalShare = { signal: string; share: number; mean: number };

/** The signals of a group of events (the unseen attack's payoff events), most frequent first. */
export function signalShares(outcomes: readonly Outcome[]): SignalShare[] {
  const seen = new Map<string, number[]>();
  for (const o of outcomes)
    for (const [signal, value] of Object.entries(o.signals))
      seen.set(signal, [...(seen.get(signal) ?? []), value]);
  return [...seen.entries()]
    .map(([signal, values]) => ({
      signal,
      share: values.length / outcomes.length,
      mean: values.reduce((a, b) => a + b, 0) / values.length,
    }))
    .sort((a, b) => b.share - a.share || a.signal.localeCompare(b.signal));
}

/** The mean score of a group of events (0 for none). */
export const meanScore = (outcomes: readonly Outcome[]) =>
  outcomes.length === 0 ? 0 : outcomes.reduce((sum, o) => sum + o.score, 0) / outcomes.length;

/** Hour 2 starts a day after hour 1 did: the same merchant the next day, its history in reach. */
export const SECOND_HOUR_AT = 24 * HOUR;
/** When the merchant has labelled hour 1 and adopted the fit: 5 minutes after the hour. */
export const LABELLED_AT = HOUR + 5 * MINUTE;

export type Timed = { event: SimEvent; hour: 1 | 2 };

/**
 * Both hours on one clock (hour 1 at 0, hour 2 SECOND_HOUR_AT later), each hour's early events
 * (accounts made days or months before) at their own times, so the clock only moves on: what
 * comes before LABELLED_AT is played with the default weights (hour 1 and hour 2's oldest
 * history), the rest after the adoption. Stable: equal times keep hour 1 first.
 */
export function timelineOf(
  first: readonly SimEvent[],
  second: readonly SimEvent[],
): { before: Timed[]; after: Timed[] } {
  const timed: Timed[] = [
    ...first.map((event) => ({ event, hour: 1 as const })),
    ...second.map((event) => ({
      event: { ...event, at: event.at + SECOND_HOUR_AT },
      hour: 2 as const,
    })),
  ]
    .map((t, i) => ({ t, i }))
    .sort((a, b) => a.t.event.at - b.t.event.at || a.i - b.i)
    .map(({ t }) => t);
  const cut = timed.findIndex((t) => t.event.at >= LABELLED_AT);
  return cut === -1
    ? { before: timed, after: [] }
    : { before: timed.slice(0, cut), after: timed.slice(cut) };
}

/** Each event type's thresholds from the weights' defaults, for every type. */
export function ceilingsOf(
  defaults: Partial<Record<ScreenType, { review: number | null; block: number | null }>>,
): Thresholds {
  return Object.fromEntries(
    Object.entries(defaults).map(([type, t]) => [type, { review: t.review, block: t.block }]),
  ) as Thresholds;
}

/** The merchant's own thresholds set to the weights' defaults for every event type. */
export async function atTheCeilings(api: Api): Promise<ThresholdsView> {
  const view = await api<ThresholdsView>("/api/scoring/thresholds");
  await api("/api/scoring/thresholds", {
    method: "PUT",
    body: { thresholds: ceilingsOf(view.weights.thresholds) },
  });
  return api<ThresholdsView>("/api/scoring/thresholds");
}

export type TwoHoursOptions = Omit<MixOptions, "hours"> & {
  /** Hour 2's seed. */
  secondSeed: number;
  /** Populations whose allowed events the merchant finds out besides the sample, and how many. */
  foundOut?: Readonly<Record<string, number>>;
};

export type HourFigures = ConfigurationFigures & { seed: number; weights: string };

export type TwoHoursResult = {
  thresholds: ThresholdsView;
  hours: [HourFigures, HourFigures];
  labels: LabelPlan[];
  /** The proposal fitted on the labels, with its backtest (metrics), as adopted. */
  proposal: ScoreModelView;
  /** The unseen attack's payoff events: their signals in hour 1, their mean score each hour. */
  unseen: { signals: SignalShare[]; meanScores: [number, number] };
};

export type Stage = "hour 1" | "labels" | "hour 2";

const unseenPayoff = (outcomes: readonly Outcome[]) =>
  outcomes.filter((o) => o.population === UNSEEN && o.payoff);

/** The two hours, one merchant; `progress` hears each stage's events done out of its total. */
export async function twoHours(
  warden: Warden,
  options: TwoHoursOptions,
  progress: (stage: Stage, done: number, total: number) => void = () => {},
): Promise<TwoHoursResult> {
  const mix = (seed: number): MixOptions => ({
    ...options,
    seed,
    hours: 1,
    // The unseen attack at UNSEEN_WEIGHT unless --share names it.
    shares: { [UNSEEN]: UNSEEN_WEIGHT, ...options.shares },
  });
  const merchant = await setUpMerchant(warden, SCORE_CONFIGURATION, `two-hours-${options.seed}`);
  const thresholds = await atTheCeilings(merchant.api);
  const targets = targetsOf(SCORE_CONFIGURATION);

  const first = buildTraffic(mix(options.seed));
  const second = namespaced(buildTraffic(mix(options.secondSeed)), "h2_");
  const { before, after } = timelineOf(first, second);
  const start = warden.clock.now() + leadOf(before.map((t) => t.event)) + MINUTE;
  const playedBefore = await drive(
    warden,
    merchant,
    before.map((t) => t.event),
    start,
    (done) => progress("hour 1", done, before.length),
  );
  const played1 = playedBefore.filter((_, i) => before[i]?.hour === 1);

  // The merchant labels what it learnt in the hour after; then asks for a fit and adopts it.
  warden.clock.set(start + LABELLED_AT);
  const labels = labelsOf(played1, rng(options.seed).fork("labels"), {
    allowed: ALLOWED_SAMPLE,
    confirmedBlocks: CONFIRMED_BLOCKS,
    ...(options.foundOut ? { foundOut: options.foundOut } : {}),
  });
  await postLabels(warden, merchant, labels, (done) => progress("labels", done, labels.length));
  const proposal = await merchant.api<ScoreModelView>("/api/scoring/proposals", { body: {} });
  // The simulated merchant knows its labels are honest: it confirms each warning (all of them
  // came from its one backend key, so at least that one).
  const confirm = proposal.warnings.map((w) => w.code);
  await merchant.api(`/api/scoring/models/${proposal.id}/adopt`, {
    method: "POST",
    body: { confirm },
  });
  const adopted = await merchant.api<ThresholdsView>("/api/scoring/thresholds");

  const played2 = await drive(
    warden,
    merchant,
    after.map((t) => t.event),
    start,
    (done) => progress("hour 2", done, after.length),
  );
  return {
    thresholds,
    hours: [
      {
        ...figuresOf("hour 1", played1, targets),
        seed: options.seed,
        weights: thresholds.weights.version,
      },
      {
        ...figuresOf("hour 2", played2, targets),
        seed: options.secondSeed,
        weights: adopted.weights.version,
      },
    ],
    labels,
    proposal,
    unseen: {
      signals: signalShares(unseenPayoff(played1)),
      meanScores: [meanScore(unseenPayoff(played1)), meanScore(unseenPayoff(played2))],
    },
  };
}
