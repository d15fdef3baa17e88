/**
 * "Test on history": runs the settings on the page (saved or not, unsaved Settings forms
 * included) over the account's last 30 days of screenings and charges, in the background;
 * shows progress while it runs, then when it ran and which settings it ran, and what would
 * change: counts, a bar per day, and the list (charges first) with the reasons. Once the
 * settings are saved again, the result says it is stale, with a button to run it again.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { BacktestInput, BacktestResult } from "../../../../shared/schemas/backtest.ts";
import { TableHead } from "../../components/table-head.tsx";
import { errorMessage, fieldErrors, useTRPC } from "../../lib/trpc.ts";
import { testedText } from "./backtest-freshness.ts";
import { dayAxis } from "./day-axis.ts";
import "./backtest-panel.css";
import { LabelCount } from "../scoring/label-count.tsx";

/**
 * What to run and the unsaved changes in it, described; or the field errors ("rule.field")
 * of unsaved edits that do not validate, in which case nothing is started.
 */
export type BacktestRun =
  | { input: Omit<BacktestInput, "days">; unsaved: string[] }
  | { errors: Record<string, string> };

type Props = {
  settings: () => BacktestRun | null;
  /** The backtest's 400 named rule settings fields: shown in their forms ("rule.field"). */
  onFieldErrors: (errors: Record<string, string>) => void;
};

const CHANGE_LABEL: Record<string, string> = { block: "Block", review: "Review", allow: "Allow" };

export function BacktestPanel({ settings, onFieldErrors }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(
    trpc.backtest.status.queryOptions(undefined, {
      refetchInterval: (query) => (query.state.data?.status === "running" ? 300 : false),
      // Back from the Templates or Block list page: say at once whether they changed since.
      staleTime: 0,
    }),
  );
  useStaleWhenSaved();
  const now = useNow(30_000);
  const refresh = (job: unknown) =>
    queryClient.setQueryData(trpc.backtest.status.queryKey(), job as never);
  const start = useMutation(trpc.backtest.start.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.backtest.cancel.mutationOptions({ onSuccess: refresh }));
  const job = status.data;
  const running = job?.status === "running";
  const [invalid, setInvalid] = useState(false);

  function run() {
    const next = settings();
    if (!next) return;
    setInvalid("errors" in next);
    if ("errors" in next) {
      start.reset();
      return;
    }
    // The job keeps the unsaved changes' description, so a reload still says what ran.
    start.mutate(
      { ...next.input, days: 30, unsaved: next.unsaved },
      {
        onError: (error) => {
          const prefix = "rule_settings.";
          onFieldErrors(
            Object.fromEntries(
              Object.entries(fieldErrors(error))
                .filter(([path]) => path.startsWith(prefix))
                .map(([path, message]) => [path.slice(prefix.length), message]),
            ),
          );
        },
      },
    );
  }

  return (
    <section className="config-section backtest" aria-labelledby="backtest-title">
      <h2 id="backtest-title">Test on history</h2>
      <p className="muted">
        Runs the settings on this page, saved or not (unsaved changes in a rule's Settings
        included), over the dashboard's 30 days (UTC days, today included) of screenings and
        charges, and shows what would change. Nothing is blocked or refunded.
      </p>
      <LabelCount />
      <div className="backtest-actions">
        <button type="button" onClick={run} disabled={running || start.isPending}>
          Test on history
        </button>
        {running && (
          <button type="button" className="secondary" onClick={() => cancel.mutate()}>
            Cancel
          </button>
        )}
      </div>
      {invalid && (
        <p className="message error" role="alert">
          Not started: an unsaved rule setting is not valid; check the fields marked above.
        </p>
      )}
      {start.error && (
        <p className="message error" role="alert">
          Not started: {errorMessage(start.error)}
        </p>
      )}
      {running && (
        <div className="backtest-progress">
          <progress
            max={Math.max(1, job.total)}
            value={job.processed}
            aria-label="Backtest progress"
          />
          <span role="status">
            Testing… {job.processed.toLocaleString()} of {job.total.toLocaleString()} events
          </span>
        </div>
      )}
      {job?.status === "cancelled" && <p role="status">Cancelled.</p>}
      {job?.status === "failed" && (
        <p className="message error" role="alert">
          {job.error}
        </p>
      )}
      {job && (job.status === "done" || job.status === "failed") && (
        <p className="backtest-used" data-backtest-used>
          {testedText(job, now)}
        </p>
      )}
      {job?.status === "done" && job.settingsChanged && (
        <p className="message warning backtest-stale" role="status" data-backtest-stale>
          Settings changed since this test: its result may not be what they do now.{" "}
          <button type="button" onClick={run} disabled={start.isPending}>
            Run again
          </button>
        </p>
      )}
      {job?.status === "done" && job.result && (
        <BacktestReport result={job.result} stale={job.settingsChanged} />
      )}
    </section>
  );
}

/**
 * Asks the server again whether the settings changed since the last test whenever the page's
 * saved settings are (re)loaded: a switch autosaved, a rule's Settings form saved.
 */
function useStaleWhenSaved() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saved = [
    useQuery(trpc.rules.get.queryOptions()),
    useQuery(trpc.templates.get.queryOptions()),
    useQuery(trpc.blocklist.get.queryOptions()),
    useQuery(trpc.ruleSettings.effective.queryOptions()),
  ];
  const version = saved.map((query) => query.dataUpdatedAt).join(":");
  useEffect(() => {
    if (version) void queryClient.invalidateQueries({ queryKey: trpc.backtest.status.queryKey() });
  }, [version, queryClient, trpc]);
}

/** The time now, renewed every `everyMs`, so "2 min ago" moves on by itself. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function changeList(changes: Record<string, number>) {
  const entries = Object.entries(changes);
  if (entries.length === 0) return "no change";
  return entries.map(([change, n]) => `${n.toLocaleString()} ${change}`).join(", ");
}

const percent = (share: number | null) => (share === null ? "–" : `${Math.round(share * 100)}%`);

/** Against what people and Stripe labelled: what the tried settings would catch and wrongly stop. */
function LabelledLine({ figures }: { figures: NonNullable<BacktestResult["labelled"]> }) {
  return (
    <li data-labelled>
      Would have blocked <strong>{figures.block.fraud.toLocaleString()}</strong> labelled fraud and{" "}
      <strong>{figures.block.legitimate.toLocaleString()}</strong> labelled legitimate, and sent{" "}
      {figures.review.fraud.toLocaleString()} fraud and {figures.review.legitimate.toLocaleString()}{" "}
      legitimate to review (of {figures.total.fraud.toLocaleString()} fraud and{" "}
      {figures.total.legitimate.toLocaleString()} legitimate labelled screenings in these days):
      precision {percent(figures.precision)}, recall {percent(figures.recall)} (
      {percent(figures.recallWithReview)} with reviews).
    </li>
  );
}

function BacktestReport({ result, stale }: { result: BacktestResult; stale: boolean }) {
  const c = result.charges;
  return (
    <div className={stale ? "backtest-report stale" : "backtest-report"} data-backtest-report>
      <ul className="backtest-summary">
        <li>
          <strong>{result.screenings.total.toLocaleString()}</strong> screenings:{" "}
          {changeList(result.screenings.changes)}
        </li>
        <li data-backtest-charges>
          <strong>{c.total.toLocaleString()}</strong> charges since {result.from.slice(0, 10)}, as
          the dashboard counts them: {changeList(c.changes)}
          {c.notJudged > 0 &&
            ` (${c.notJudged.toLocaleString()} failed or pending, not judged: the rules act only on charges that went through)`}
        </li>
        <li data-newly-blocked>
          <strong>{c.newlyBlocked.toLocaleString()}</strong> charges would be blocked;{" "}
          <strong>{c.newlyBlockedRefundedOrDisputed.toLocaleString()}</strong> of them were later
          refunded or disputed ({c.newlyBlockedRefunded} refunded, {c.newlyBlockedDisputed}{" "}
          disputed).
        </li>
        {result.labelled && <LabelledLine figures={result.labelled} />}
      </ul>
      {result.byDay.length > 0 && (
        <ChangesChart days={result.byDay} from={result.from} to={result.to} />
      )}
      {result.items.length > 0 ? (
        <div className="backtest-items">
          <table>
            <caption>
              What would change ({result.items.length.toLocaleString()} of{" "}
              {result.changed.toLocaleString()}, newest first, charges first)
            </caption>
            <TableHead columns={["When", "What", "Decision", "Why"]} />
            <tbody>
              {result.items.map((item) => (
                <tr key={`${item.kind}:${item.id}`} data-backtest-item={item.id}>
                  <td>{item.at.slice(0, 16).replace("T", " ")}</td>
                  <td>
                    {item.kind === "charge" ? `Charge ${item.id}` : "Screening"}
                    <br />
                    <span className="muted">{item.label}</span>
                    {item.refunded && <span className="tag">refunded</span>}
                    {item.disputed && <span className="tag">disputed</span>}
                  </td>
                  <td>
                    {CHANGE_LABEL[item.from]} → <strong>{CHANGE_LABEL[item.to]}</strong>
                  </td>
                  <td>
                    {item.reasons.length === 0
                      ? "no rule fires"
                      : item.reasons.map((r) => r.message).join("; ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p role="status">No decision would change.</p>
      )}
    </div>
  );
}

const WIDTH = 600;
const HEIGHT = 120;
const BOTTOM = 18;

/** Changed decisions per UTC day of the window, by what they would become; hand-drawn SVG. */
function ChangesChart({
  days,
  from,
  to,
}: {
  days: BacktestResult["byDay"];
  from: string;
  to: string;
}) {
  const max = Math.max(1, ...days.map((d) => d.block + d.review + d.allow));
  const axis = dayAxis(from, to);
  const barWidth = WIDTH / axis.slots;
  const plot = HEIGHT - BOTTOM - 4;
  const h = (n: number) => (n / max) * plot;
  return (
    <figure className="tx-chart backtest-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Changed decisions per day">
        {days.map((d) => {
          const x = axis.slot(d.day) * barWidth + 1;
          const w = Math.max(1, barWidth - 2);
          const base = HEIGHT - BOTTOM;
          const block = h(d.block);
          const review = h(d.review);
          const allow = h(d.allow);
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.block} to block, ${d.review} to review, ${d.allow} to allow`}</title>
              <rect x={x} y={base - block} width={w} height={block} className="bar-blocked" />
              <rect
                x={x}
                y={base - block - review}
                width={w}
                height={review}
                className="bar-review"
              />
              <rect
                x={x}
                y={base - block - review - allow}
                width={w}
                height={allow}
                className="bar-allowed"
              />
            </g>
          );
        })}
        <text x={0} y={HEIGHT - 4} className="tick">
          {axis.first.slice(5)}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} className="tick" textAnchor="end">
          {axis.last.slice(5)}
        </text>
      </svg>
      <figcaption>
        <span className="legend legend-blocked">To block</span>
        <span className="legend legend-review">To review</span>
        <span className="legend legend-allowed">To allow</span>
      </figcaption>
    </figure>
  );
}
