/** Decisions in the last 24 h: three tiles and one bar split by share, readable at a glance. */
import { type ScreeningCounts as Counts, DECISIONS } from "../../../../shared/schemas/screening.ts";
import { DECISION_NAMES, decisionTone } from "./screening-format.ts";

export function ScreeningCounts({ counts }: { counts: Counts }) {
  const total = counts.allow + counts.review + counts.block;
  return (
    <section className="sc-counts" aria-label="Decisions, last 24 hours">
      <div className="sc-tiles">
        {DECISIONS.map((decision) => (
          <div key={decision} className={`sc-tile tone-${decisionTone(decision)}`}>
            <span className="sc-tile-label">{DECISION_NAMES[decision]}</span>
            <strong className="sc-tile-value" data-count={decision}>
              {counts[decision].toLocaleString()}
            </strong>
          </div>
        ))}
      </div>
      {total > 0 && (
        <div
          className="sc-bar"
          role="img"
          aria-label={`Of ${total} screenings in the last 24 hours: ${counts.allow} allowed, ${counts.review} review, ${counts.block} blocked`}
        >
          {DECISIONS.map(
            (decision) =>
              counts[decision] > 0 && (
                <span
                  key={decision}
                  className={`tone-${decisionTone(decision)}`}
                  style={{ flexGrow: counts[decision] }}
                />
              ),
          )}
        </div>
      )}
      <small>Last 24 hours</small>
    </section>
  );
}
