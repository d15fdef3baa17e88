/**
 * Every reason of one screening, with what was observed against the limit, and, when its
 * risk score reached the level Warden acts at but nothing was set to act on it, why not
 * (shared/score/score-note.ts, against the thresholds in force now).
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { ScreeningRow, ScreenReason } from "../../../../shared/schemas/screening.ts";
import { type StoredScreening, storedScoreNote } from "../../../../shared/score/score-note.ts";
import { ruleLabel } from "../../lib/rule-format.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { formatAllowed, formatObserved, monitoredVerb } from "./screening-format.ts";
import "./screening-reasons.css";

export function ScreeningReasons({ row }: { row: ScreeningRow }) {
  const note = useScoreNote(row);
  if (row.reasons.length === 0 && row.monitored.length === 0) {
    return (
      <>
        {note ? (
          <ScoreNote note={note} allowed />
        ) : (
          <p className="sc-none">No rule fired: allowed.</p>
        )}
        <Unavailable row={row} />
      </>
    );
  }
  return (
    <div className="sc-reasons">
      {note && <ScoreNote note={note} allowed={false} />}
      <Unavailable row={row} />
      {row.allowed && (
        <p className="sc-allowed" data-allowed={row.allowed.kind}>
          Allowed by the allow list: <b>{formatAllowed(row.allowed)}</b>.
        </p>
      )}
      {row.reasons.length > 0 && (
        <ul aria-label="Reasons">
          {row.reasons.map((reason) => (
            <ReasonItem
              key={`${reason.rule}-${reason.message}`}
              reason={reason}
              verb={reason.action}
            />
          ))}
        </ul>
      )}
      {row.monitored.length > 0 && (
        <ul aria-label="Monitored rules">
          {row.monitored.map((reason) => (
            <ReasonItem
              key={`${reason.rule}-${reason.message}`}
              reason={reason}
              verb={monitoredVerb(reason, row.allowed)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** The score note of a stored screening; null until the thresholds load, or when none applies. */
function useScoreNote(row: StoredScreening): Note | null {
  const trpc = useTRPC();
  // Only a scored screening the score did not act on can have one: nothing to load otherwise.
  const acted = [...row.reasons, ...(row.monitored ?? [])].some((r) => r.rule === "risk_score");
  const scored = row.contributions.length > 0 && !acted;
  const view = useQuery({ ...trpc.scoreThresholds.get.queryOptions(), enabled: scored });
  if (!scored || !view.data) return null;
  return storedScoreNote(row, view.data);
}

/** The note alone, where the reasons are shown another way (a review card). */
export function ScoreNoteLine({ row }: { row: StoredScreening }) {
  const note = useScoreNote(row);
  return note ? <ScoreNote note={note} allowed={false} /> : null;
}

/** The sentence, and whether the type still has no threshold (then: where to set one). */
type Note = { text: string; unset: boolean };

/** "Allowed: score 100, not acted on: no threshold for signups; …", with where to set one. */
function ScoreNote({ note, allowed }: { note: Note; allowed: boolean }) {
  return (
    <p className="sc-none sc-score-note" data-score-note>
      {allowed ? "No rule fired: allowed; " : ""}
      <b>{note.text}</b>.{" "}
      {note.unset && (
        <span className="sc-note-links">
          <Link to="/homepage/risk-score#score-thresholds-title">Set thresholds</Link> ·{" "}
          <Link to="/homepage/templates">Templates</Link> ·{" "}
          <Link to="/homepage/dashboard">Recommended set-up</Link>
        </span>
      )}
    </p>
  );
}

/** Features Warden could not compute for this event: the rules that needed them abstained. */
function Unavailable({ row }: { row: ScreeningRow }) {
  if (row.unavailable.length === 0) return null;
  return (
    <ul aria-label="Not computed" className="sc-unavailable">
      {row.unavailable.map((item) => (
        <li key={item.feature}>
          <strong>{item.feature}</strong> could not be computed ({item.reason}); rules that need it
          abstained.
        </li>
      ))}
    </ul>
  );
}

function ReasonItem({ reason, verb }: { reason: ScreenReason; verb: string }) {
  return (
    <li data-rule={reason.rule}>
      <span className="sc-reason-head">
        <strong>{ruleLabel(reason.rule)}</strong>
        <span className="sc-verb">{verb}</span>
      </span>
      <span className="sc-message">{reason.message}</span>
      <span className="sc-values">
        Observed: <b data-observed>{formatObserved(reason.observed)}</b> · Limit:{" "}
        <b data-limit>{formatObserved(reason.limit)}</b>
      </span>
    </li>
  );
}
