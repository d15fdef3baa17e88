/**
 * The dashboard's decisions per minute over the last hour: a bar per minute, allowed at the
 * bottom, then review, then blocked; hand-drawn SVG that scales to the page's width (a 375 px
 * phone included), with the same figures in words for screen readers. Read again on each
 * live change of the screenings and once a minute, so old minutes roll off.
 */
import { useQuery } from "@tanstack/react-query";
import type { DecisionsPerMinute } from "../../../../shared/schemas/live.ts";
import { LoadError } from "../../components/save-status.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import "./live.css";

/** Drawing units: the SVG is stretched to the figure's width at a fixed height (CSS). */
const WIDTH = 600;
const HEIGHT = 120;
const TOP = 4;
const GAP = 2;
const PARTS = [
  { key: "allow", className: "bar-allow" },
  { key: "review", className: "bar-review" },
  { key: "block", className: "bar-block" },
] as const;

export function DecisionsChart() {
  const trpc = useTRPC();
  const perMinute = useQuery(
    trpc.screenings.perMinute.queryOptions(undefined, { staleTime: 0, refetchInterval: 60_000 }),
  );
  if (perMinute.isError) {
    return <LoadError what="the decisions per minute" error={errorMessage(perMinute.error)} />;
  }
  if (!perMinute.data) return null;
  return <MinuteBars data={perMinute.data} />;
}

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** The figures in one sentence: the chart's text for screen readers, and its caption. */
export function perMinuteSummary({ minutes, totals }: DecisionsPerMinute): string {
  const total = totals.allow + totals.review + totals.block;
  if (total === 0) return "No decisions in the last hour.";
  const busiest = minutes.reduce(
    (best, m) => {
      const n = m.allow + m.review + m.block;
      return n > best.n ? { n, at: m.minute } : best;
    },
    { n: 0, at: "" },
  );
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    `${plural(total, "decision", "decisions")} in the last hour: ${totals.allow} allowed, ` +
    `${totals.review} sent to review, ${totals.block} blocked. ` +
    `Busiest minute ${clock(busiest.at)} with ${busiest.n}.`
  );
}

function MinuteBars({ data }: { data: DecisionsPerMinute }) {
  const { minutes, totals } = data;
  const total = totals.allow + totals.review + totals.block;
  const max = Math.max(1, ...minutes.map((m) => m.allow + m.review + m.block));
  const plot = HEIGHT - TOP;
  const barWidth = WIDTH / minutes.length;
  const base = HEIGHT;
  const summary = perMinuteSummary(data);
  return (
    <figure className="live-chart" data-total={total}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby="live-chart-title live-chart-desc"
      >
        <title id="live-chart-title">Decisions per minute, last hour</title>
        <desc id="live-chart-desc">{summary}</desc>
        <line
          x1={0}
          x2={WIDTH}
          y1={base}
          y2={base}
          className="axis"
          vectorEffect="non-scaling-stroke"
        />
        {minutes.map((m, i) => {
          let top = base;
          return (
            <g key={m.minute} data-minute={m.minute}>
              <title>{`${clock(m.minute)}: ${m.allow} allowed, ${m.review} review, ${m.block} blocked`}</title>
              {PARTS.map(({ key, className }) => {
                const h = (m[key] / max) * plot;
                if (h <= 0) return null;
                top -= h;
                return (
                  <rect
                    key={key}
                    x={i * barWidth + GAP / 2}
                    y={top}
                    width={Math.max(1, barWidth - GAP)}
                    height={h}
                    className={className}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      {/* In HTML, not the SVG: the stretched drawing would stretch its text too. */}
      <div className="live-chart-axis" aria-hidden="true">
        <span>{clock(minutes[0]?.minute ?? "")}</span>
        <span>now</span>
      </div>
      <figcaption>
        <span className="legend legend-allow">Allowed</span>
        <span className="legend legend-review">Review</span>
        <span className="legend legend-block">Blocked</span>
        <span>Decisions per minute, last hour</span>
        <span className="live-chart-summary" aria-hidden="true">
          {summary}
        </span>
      </figcaption>
    </figure>
  );
}
