import type { DashboardSummary } from "../../../../shared/schemas/transaction.ts";

const WIDTH = 600;
const HEIGHT = 160;
const TOP = 8;
const BOTTOM = 20;
const GAP = 2;

/** Charges per UTC day, allowed stacked under blocked; hand-drawn SVG, no chart library. */
export function ChargesChart({ days }: { days: DashboardSummary["days"] }) {
  const max = Math.max(1, ...days.map((d) => d.allowed + d.blocked));
  const plot = HEIGHT - TOP - BOTTOM;
  const barWidth = WIDTH / days.length;
  const scale = (count: number) => (count / max) * plot;
  const allowed = days.reduce((sum, d) => sum + d.allowed, 0);
  const blocked = days.reduce((sum, d) => sum + d.blocked, 0);
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  return (
    <figure className="tx-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="tx-chart-title tx-chart-desc"
      >
        <title id="tx-chart-title">Charges per day, last 30 days</title>
        <desc id="tx-chart-desc">
          {`From ${first} to ${last} (UTC): ${allowed} allowed and ${blocked} blocked charges; busiest day ${max}.`}
        </desc>
        <line x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="axis" />
        {days.map((d, i) => {
          const x = i * barWidth + GAP / 2;
          const w = Math.max(1, barWidth - GAP);
          const allowedH = scale(d.allowed);
          const blockedH = scale(d.blocked);
          const base = HEIGHT - BOTTOM;
          return (
            <g key={d.day} data-day={d.day}>
              <title>{`${d.day}: ${d.allowed} allowed, ${d.blocked} blocked`}</title>
              <rect x={x} y={base - allowedH} width={w} height={allowedH} className="bar-allowed" />
              <rect
                x={x}
                y={base - allowedH - blockedH}
                width={w}
                height={blockedH}
                className="bar-blocked"
              />
            </g>
          );
        })}
        <text x={0} y={HEIGHT - 4} className="tick">
          {first.slice(5)}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} className="tick" textAnchor="end">
          {last.slice(5)}
        </text>
      </svg>
      <figcaption>
        <span className="legend legend-allowed">Allowed</span>
        <span className="legend legend-blocked">Blocked</span>
        <span>Charges per day (UTC), last 30 days</span>
      </figcaption>
    </figure>
  );
}
