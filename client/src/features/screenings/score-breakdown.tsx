/**
 * A screening's risk score and what it adds up from: the score as a big number, then one line
 * per contribution ("+22 linked to 6 accounts first seen in the last hour through card"), the
 * baseline first, each with a bar laid after the one before so the bars end at the sum.
 * Signals that weigh nothing sit behind a disclosure. On the Screenings page's open row and on
 * a review card.
 */
import type { Contribution } from "../../../../shared/schemas/screening.ts";
import {
  type BreakdownLine,
  breakdownOf,
  heldSentence,
  unweightedSentence,
} from "./score-format.ts";
import "./score-breakdown.css";

export function ScoreBreakdown(props: { score: number; contributions: readonly Contribution[] }) {
  const breakdown = breakdownOf(props.contributions);
  const held = breakdown && heldSentence(breakdown);
  return (
    <section className="sb" aria-label="Risk score">
      <p className="sb-total">
        <span className="sb-score" data-score>
          {props.score}
        </span>
        <span className="sb-of">risk score (0–100)</span>
      </p>
      {!breakdown ? (
        <p className="sb-note" data-no-breakdown>
          No breakdown: screened before the risk score
        </p>
      ) : (
        <>
          {held && (
            <p className="sb-note" data-held={breakdown.held}>
              {held}
            </p>
          )}
          <ul className="sb-lines" aria-label="What the risk score adds up">
            {breakdown.lines.map((line) => (
              <Line key={line.signal} line={line} />
            ))}
          </ul>
          {breakdown.unweighted.length > 0 && (
            <details className="sb-more">
              <summary>{unweightedSentence(breakdown.unweighted.length)}</summary>
              <ul className="sb-lines" aria-label="Signals with no weight">
                {breakdown.unweighted.map((c) => (
                  <li
                    key={c.signal}
                    className="sb-line zero"
                    data-signal={c.signal}
                    data-points={0}
                  >
                    <span className="sb-points">0</span>
                    <span className="sb-detail">{c.detail}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}

function Line({ line }: { line: BreakdownLine }) {
  return (
    <li className={`sb-line ${line.kind}`} data-signal={line.signal} data-points={line.points}>
      <span className="sb-points">{line.label}</span>
      <span className="sb-detail">{line.detail}</span>
      <span className="sb-track" aria-hidden="true">
        <span className="sb-bar" style={{ left: `${line.from}%`, width: `${line.width}%` }} />
      </span>
    </li>
  );
}
