/** Every reason of one screening, with what was observed against the limit. */
import type { ScreeningRow, ScreenReason } from "../../../../shared/schemas/screening.ts";
import { ruleLabel } from "../../lib/rule-format.ts";
import { formatAllowed, formatObserved, monitoredVerb } from "./screening-format.ts";

export function ScreeningReasons({ row }: { row: ScreeningRow }) {
  if (row.reasons.length === 0 && row.monitored.length === 0) {
    return (
      <>
        <p className="sc-none">No rule fired: allowed.</p>
        <Unavailable row={row} />
      </>
    );
  }
  return (
    <div className="sc-reasons">
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
