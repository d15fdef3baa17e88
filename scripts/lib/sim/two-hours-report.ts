/**
 * The two-hour run's report (pure, Markdown): both hours side by side, each attack's recall
 * (the unseen one marked), ordinary customers blocked and reviewed against the ceilings, the
 * labels the merchant gave, the proposal's backtest and the issue's goals, met or not.
 */
import type { ModelMetrics } from "../../../shared/schemas/score-models.ts";
import { pct, type Tally } from "./report.ts";
import type { HourFigures, SignalShare, TwoHoursResult } from "./two-hours.ts";
import {
  ALLOWED_SAMPLE,
  CONFIRMED_BLOCKS,
  type LabelPlan,
  type LabelWhy,
} from "./two-hours-labels.ts";

/** The false-positive ceilings: ordinary events blocked, and sent to review. */
export const CEILINGS = { blocked: 0.005, reviewed: 0.02 } as const;
/** Issue 33's goals: attack payoff events blocked or reviewed; the unseen attack's in hour 2. */
export const GOALS = { recall: 0.97, unseen: 0.9 } as const;

const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);
const caught = (t: Tally) => ratio(t.blocked + t.reviewed, t.events);
const mark = (ok: boolean) => (ok ? "met" : "NOT met");

/** One row per hour: its weights, recall, and what ordinary customers met. */
export function hoursTable(hours: readonly HourFigures[]): string {
  return [
    "| hour | seed | weights | attack payoff events | blocked | blocked or reviewed | ordinary events | ordinary blocked (≤ 0.5%) | ordinary reviewed (≤ 2%) | precision | ordinary people blocked ≥ once |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...hours.map(
      (h) =>
        `| ${h.name} | ${h.seed} | ${h.weights} | ${h.attacks.events} | ${pct(h.attacks.blockedRate)} | ${pct(h.attacks.recall)} | ${h.ordinary.events} | ${pct(h.ordinary.blockedRate)} | ${pct(h.ordinary.reviewedRate)} | ${pct(h.precision)} | ${h.ordinary.peopleBlocked}/${h.ordinary.people} |`,
    ),
  ].join("\n");
}

/** Each attack's payoff events in both hours: blocked / reviewed, and caught (either). */
export function attacksTable(first: HourFigures, second: HourFigures, unseen: string): string {
  const names = new Set(
    [...first.populations, ...second.populations].filter((p) => p.attack).map((p) => p.population),
  );
  const cell = (h: HourFigures, name: string) => {
    const p = h.populations.find((x) => x.population === name);
    return p
      ? `${p.events} | ${pct(ratio(p.blocked, p.events))} / ${pct(ratio(p.reviewed, p.events))} | ${pct(caught(p))}`
      : "0 | – | –";
  };
  return [
    "| attack | hour 1 payoff events | hour 1 blocked / reviewed | hour 1 caught | hour 2 payoff events | hour 2 blocked / reviewed | hour 2 caught |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...[...names].map(
      (name) =>
        `| ${name === unseen ? `**${name}** (unseen)` : name} | ${cell(first, name)} | ${cell(second, name)} |`,
    ),
  ].join("\n");
}

const WHY: Record<LabelWhy, string> = {
  reviewed: "reviewed (denied or approved in the queue, and labelled)",
  contested: "blocked, contested by the customer",
  confirmed: "blocked, confirmed fraud",
  sampled: "allowed, found out later (the sample)",
  found: "allowed, found out besides the sample (--found-out)",
};

/** The labels the merchant gave, by why and class, with the unseen attack's share. */
export function labelsTable(labels: readonly LabelPlan[], unseen: string): string {
  // The --found-out row only when something was found out that way.
  const whys = (Object.keys(WHY) as LabelWhy[]).filter(
    (why) => why !== "found" || labels.some((l) => l.why === why),
  );
  const rows = whys.map((why) => {
    const of = labels.filter((l) => l.why === why);
    const fraud = of.filter((l) => l.label === "fraud").length;
    const mine = of.filter((l) => l.population === unseen).length;
    return `| ${WHY[why]} | ${fraud} | ${of.length - fraud} | ${mine} |`;
  });
  const fraud = labels.filter((l) => l.label === "fraud").length;
  const mine = labels.filter((l) => l.population === unseen).length;
  return [
    `| labels after hour 1 | fraud | legitimate | of them ${unseen} |`,
    "|---|---:|---:|---:|",
    ...rows,
    `| all | ${fraud} | ${labels.length - fraud} | ${mine} |`,
  ].join("\n");
}

/** The proposal's backtest: current weights against proposed, on the merchant's own history. */
export function backtestTable(m: ModelMetrics): string {
  const { fraud, legitimate } = m.labels;
  const row = (what: string, side: "current" | "proposed", weights: string) => {
    const l = m.labelled[side];
    const r = m.recent[side];
    return `| ${what} (${weights}) | ${l.fraud.blocked} / ${l.fraud.reviewed} (${pct(ratio(l.fraud.blocked + l.fraud.reviewed, fraud))}) | ${l.legitimate.blocked} / ${l.legitimate.reviewed} | ${r.blocked} / ${r.reviewed} of ${m.recent.screenings} |`;
  };
  return [
    `Fitted on ${fraud} fraud and ${legitimate} legitimate screenings (from labels ${m.labels.from.labels}, reviews ${m.labels.from.reviews}, Stripe ${m.labels.from.stripe}${m.labels.capped ? ", capped" : ""}), ${m.folds}-fold cross-validated, pull toward the weights in force ${m.lambda}, in ${m.took_ms} ms.`,
    "",
    "| weights | labelled fraud blocked / reviewed (caught) | labelled legitimate blocked / reviewed | last 30 days blocked / reviewed |",
    "|---|---:|---:|---:|",
    row("current", "current", m.compared_with),
    row("proposed", "proposed", "fitted"),
  ].join("\n");
}

/** The weights that moved most (points per unit of the signal). */
export function changesTable(m: ModelMetrics, n = 12): string {
  return [
    "| signal | from | to |",
    "|---|---:|---:|",
    ...m.changes.slice(0, n).map((c) => `| ${c.signal} | ${c.from} | ${c.to} |`),
  ].join("\n");
}

/**
 * The unseen attack's signals on its payoff events in hour 1 (how often, mean value) and each
 * one's weight before and after the fit, in points per unit (a weight that did not move: "=").
 */
export function unseenSignalsTable(
  signals: readonly SignalShare[],
  changes: ModelMetrics["changes"],
): string {
  return [
    "| signal on the unseen attack's payoff events | share of them | mean value | points per unit: default → adopted |",
    "|---|---:|---:|---:|",
    ...signals.map((s) => {
      const change = changes.find((c) => c.signal === s.signal);
      return `| ${s.signal} | ${pct(s.share)} | ${s.mean.toFixed(2)} | ${change ? `${change.from} → ${change.to}` : "="} |`;
    }),
  ].join("\n");
}

/** The issue's goals and the ceilings, each met or not, from the figures. */
export function goalLines(hours: readonly HourFigures[], unseen: string): string[] {
  const lines: string[] = [];
  for (const h of hours) {
    const u = h.populations.find((p) => p.population === unseen);
    lines.push(
      `${h.name} (${h.weights}): attack payoff events caught ${pct(h.attacks.recall)} (goal ≥ ${pct(GOALS.recall)}: ${mark(h.attacks.recall >= GOALS.recall)}); ${unseen} caught ${u ? pct(caught(u)) : "–"} of ${u?.events ?? 0}; ordinary blocked ${pct(h.ordinary.blockedRate)} (≤ ${pct(CEILINGS.blocked)}: ${mark(h.ordinary.blockedRate <= CEILINGS.blocked)}), reviewed ${pct(h.ordinary.reviewedRate)} (≤ ${pct(CEILINGS.reviewed)}: ${mark(h.ordinary.reviewedRate <= CEILINGS.reviewed)})`,
    );
  }
  const last = hours.at(-1)?.populations.find((p) => p.population === unseen);
  const rate = last ? caught(last) : 0;
  lines.push(
    `Goal: the unseen pattern caught ≥ ${pct(GOALS.unseen)} in the second hour: ${pct(rate)}, ${mark(rate >= GOALS.unseen)}`,
  );
  return lines;
}

/** The whole report. */
export function twoHoursReport(result: TwoHoursResult, header: string, unseen: string): string {
  const [first, second] = result.hours;
  const metrics = result.proposal.metrics;
  return [
    `## Two hours: do labels teach the score? (${header})`,
    "",
    hoursTable(result.hours),
    "",
    attacksTable(first, second, unseen),
    "",
    labelsTable(result.labels, unseen),
    "",
    `The merchant labels (from the simulator's truth): every reviewed event, every blocked ordinary event (the customer complains), ${pct(CONFIRMED_BLOCKS)} of blocked attack events (confirmed when chargebacks arrive), a seeded ${pct(ALLOWED_SAMPLE)} of allowed events.`,
    "",
    `### Proposal v${result.proposal.version} (${result.proposal.weights.version}), adopted`,
    "",
    metrics ? backtestTable(metrics) : "(no backtest)",
    "",
    metrics ? changesTable(metrics) : "",
    "",
    `Mean score of ${unseen}'s payoff events: hour 1 ${result.unseen.meanScores[0].toFixed(1)}, hour 2 ${result.unseen.meanScores[1].toFixed(1)}.`,
    "",
    unseenSignalsTable(result.unseen.signals, metrics?.changes ?? []),
    "",
    ...goalLines(result.hours, unseen).map((line) => `- ${line}`),
  ].join("\n");
}
