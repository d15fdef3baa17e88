/**
 * A preview's answer: over the last 30 days, how many screenings the thresholds in force and
 * the proposed ones block and review, and of the labelled ones how many fraud they catch and
 * how many legitimate they stop; a pair of bars per figure, then the figures per event type.
 */
import type { ThresholdPreview } from "../../../../shared/schemas/score-thresholds.ts";
import { barWidth, changeText, metricsOf, typeName } from "./preview-format.ts";

const n = (value: number) => value.toLocaleString("en-US");
const COLUMN = {
  blocked: "Blocked",
  reviewed: "Reviewed",
  fraud_caught: "Fraud caught",
  legitimate_stopped: "Legitimate stopped",
} as const;

export function PreviewResult({ preview }: { preview: ThresholdPreview }) {
  const { total } = preview;
  const metrics = metricsOf(total);
  const types = preview.types.filter(
    (t) => t.screenings > 0 || t.now_threshold !== null || t.proposed_threshold !== null,
  );
  return (
    <div className="score-preview" data-preview>
      <p className="score-preview-scope">
        Over the last 30 days: <strong>{n(total.screenings)}</strong> scored screenings,{" "}
        {n(total.fraud)} labelled fraud, {n(total.legitimate)} labelled legitimate
        {preview.unscored > 0 && ` (and ${n(preview.unscored)} stored before the score, left out)`}.
      </p>
      <ul className="score-bars" aria-label="Today against proposed">
        {metrics.map((m) => (
          <li key={m.key} data-metric={m.key} data-now={m.now} data-proposed={m.proposed}>
            <span className="score-bar-label">
              {m.label}
              {m.of !== null && <small> of {n(m.of)}</small>}
            </span>
            <span className="score-bar-pair">
              <span
                className="score-bar now"
                style={{ width: `${barWidth(m.now, [m.now, m.proposed])}%` }}
              />
              <span className="score-bar-value">Now {n(m.now)}</span>
              <span
                className="score-bar proposed"
                style={{ width: `${barWidth(m.proposed, [m.now, m.proposed])}%` }}
              />
              <span className="score-bar-value">Proposed {n(m.proposed)}</span>
            </span>
          </li>
        ))}
      </ul>
      <table className="score-preview-table">
        <thead>
          <tr>
            <th scope="col">Event type</th>
            <th scope="col">Screenings</th>
            {Object.values(COLUMN).map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {types.map((t) => {
            const [blocked, reviewed, fraud, legitimate] = metricsOf(t);
            return (
              <tr key={t.type} data-preview-type={t.type}>
                <th scope="row">{typeName(t.type)}</th>
                <td data-label="Screenings">{n(t.screenings)}</td>
                {[blocked, reviewed, fraud, legitimate].map(
                  (m) =>
                    m && (
                      <td key={m.key} data-metric={m.key} data-label={COLUMN[m.key]}>
                        {changeText(m.now, m.proposed)}
                      </td>
                    ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
