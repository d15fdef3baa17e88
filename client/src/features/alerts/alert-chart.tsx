/**
 * An alert event's chart: its series around the moment in 5-minute buckets, and a dashed line
 * for the usual value where there is one; hand-drawn SVG stretched to the card's width (a
 * 375 px phone included), with the figures in words for screen readers.
 */
import type { AlertEventView } from "../../../../shared/schemas/alerts.ts";
import { chartLines, chartSummary } from "./alert-chart-lines.ts";

/** Drawing units: the SVG is stretched to the figure's width at a fixed height (CSS). */
const WIDTH = 300;
const HEIGHT = 60;

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

export function AlertChart({ event }: { event: AlertEventView }) {
  const { points } = event;
  if (points.length === 0) return null;
  const lines = chartLines(points, WIDTH, HEIGHT);
  const summary = chartSummary(points, clock);
  const id = `alert-chart-${event.id}`;
  return (
    <figure className="al-chart" data-points={points.length}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <title id={`${id}-title`}>{`${event.alert_name}, per 5 minutes`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line
          x1={0}
          x2={WIDTH}
          y1={HEIGHT}
          y2={HEIGHT}
          className="al-axis"
          vectorEffect="non-scaling-stroke"
        />
        {lines.usual && (
          <path d={lines.usual} className="al-usual" vectorEffect="non-scaling-stroke" />
        )}
        <path d={lines.value} className="al-value" vectorEffect="non-scaling-stroke" />
      </svg>
      {/* In HTML, not the SVG: the stretched drawing would stretch its text too. */}
      <div className="al-chart-axis" aria-hidden="true">
        <span>{clock(points[0]?.at ?? "")}</span>
        <span>max {lines.top}</span>
        <span>{clock(points.at(-1)?.at ?? "")}</span>
      </div>
      <figcaption aria-hidden="true">
        <span className="al-legend al-legend-value">Value</span>
        {lines.usual && <span className="al-legend al-legend-usual">Usual</span>}
      </figcaption>
    </figure>
  );
}
