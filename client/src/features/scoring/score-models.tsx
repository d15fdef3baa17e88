/**
 * Weights fitted on this account's labels: which weights score screenings now, a button that
 * proposes new ones (a fit on the labels and a backtest on this account's history, nothing
 * adopted), the proposal's backtest against the weights in force and its biggest weight
 * changes, its warnings (Adopt stays disabled until each one's box is ticked), Adopt and Roll
 * back each behind a confirmation, and every version so far.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type {
  ScoreModels as Models,
  ScoreModelView,
  WarningCode,
} from "../../../../shared/schemas/score-models.ts";
import { MIN_LABELS_PER_CLASS } from "../../../../shared/schemas/score-models.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { LoadError } from "../../components/save-status.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { weightsName } from "../../lib/rule-format.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import {
  backtestRows,
  confirmedText,
  labelsText,
  pointsText,
  share,
  signalName,
  thresholdsText,
  WARNING_TEXT,
  warningsText,
} from "./score-models-format.ts";
import "./score-models.css";
import { LabelCount } from "./label-count.tsx";

/** Weight changes a proposal shows (the largest). */
const CHANGES_SHOWN = 8;

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "");

export function ScoreModels() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.scoreModels.list.queryOptions());
  const [confirming, setConfirming] = useState<{ adopt: ScoreModelView } | "rollback" | null>(null);
  const settled = (next: Models) => {
    queryClient.setQueryData(trpc.scoreModels.list.queryKey(), next);
    // The thresholds section names the weights in force.
    void queryClient.invalidateQueries({ queryKey: trpc.scoreThresholds.pathKey() });
    setConfirming(null);
  };
  const propose = useMutation(
    trpc.scoreModels.propose.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.scoreModels.list.queryKey() }),
    }),
  );
  const adopt = useMutation(trpc.scoreModels.adopt.mutationOptions({ onSuccess: settled }));
  const rollback = useMutation(trpc.scoreModels.rollback.mutationOptions({ onSuccess: settled }));

  if (list.isError) return <LoadError what="your weights" error={errorMessage(list.error)} />;
  if (!list.data) return <p className="loading">Loading…</p>;
  const { in_force: inForce, models } = list.data;
  const adopted = models.find((m) => m.id === inForce.model_id);
  const proposal = models.find((m) => m.status === "proposed");
  const failed = [propose.error, adopt.error, rollback.error].find(Boolean);

  return (
    <section className="config-section score-models" aria-labelledby="score-models-title">
      <h2 id="score-models-title">Weights from your labels</h2>
      <p className="config-note">
        Warden can fit the score's weights on the screenings you labelled (fraud or legitimate, by
        label, review decision or Stripe dispute), staying close to the weights in force while
        labels are few. It needs at least {MIN_LABELS_PER_CLASS} of each. A proposal comes with a
        backtest on your own history and changes nothing until you adopt it.
      </p>
      <LabelCount />
      <p data-in-force>
        Scoring with <strong title={inForce.version}>{weightsName(inForce.version)}</strong>
        {adopted
          ? `, fitted on your labels, adopted ${when(adopted.adopted_at)}${adopted.adopted_by ? ` by ${adopted.adopted_by}` : ""}.`
          : ", shipped with Warden."}
      </p>
      <div className="score-models-actions">
        <button type="button" onClick={() => propose.mutate()} disabled={propose.isPending}>
          {propose.isPending ? "Fitting…" : "Propose new weights from your labels"}
        </button>
        {adopted && confirming !== "rollback" && (
          <button type="button" className="secondary" onClick={() => setConfirming("rollback")}>
            Roll back…
          </button>
        )}
      </div>
      {propose.isPending && (
        <div className="score-models-progress">
          <progress aria-label="Fitting on your labels" />
          <span role="status">
            Fitting on your labels and testing on your history; this can take up to a minute.
          </span>
        </div>
      )}
      {confirming === "rollback" && adopted && (
        <div className="score-models-confirm" data-confirm-rollback>
          <p>
            Stop scoring with {weightsName(adopted.weights.version)} and go back to the weights in
            force before it? The next screening is scored with them.
          </p>
          <button type="button" disabled={rollback.isPending} onClick={() => rollback.mutate()}>
            Roll back
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      )}
      <ErrorMessage error={failed} />
      {proposal && (
        <Proposal
          key={proposal.id}
          model={proposal}
          inForce={inForce.version}
          confirming={typeof confirming === "object" && confirming?.adopt.id === proposal.id}
          adopting={adopt.isPending}
          onAdopt={() => setConfirming({ adopt: proposal })}
          onConfirm={(confirm) => adopt.mutate({ id: proposal.id, confirm })}
          onCancel={() => setConfirming(null)}
        />
      )}
      {models.length > 0 && <History models={models} />}
    </section>
  );
}

type ProposalProps = {
  model: ScoreModelView;
  inForce: string;
  confirming: boolean;
  adopting: boolean;
  onAdopt: () => void;
  onConfirm: (confirm: WarningCode[]) => void;
  onCancel: () => void;
};

function Proposal({
  model,
  inForce,
  confirming,
  adopting,
  onAdopt,
  onConfirm,
  onCancel,
}: ProposalProps) {
  const m = model.metrics;
  const thresholds = m ? thresholdsText(m.thresholds) : null;
  const [ticked, setTicked] = useState<ReadonlySet<WarningCode>>(new Set());
  const tick = (code: WarningCode, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(code);
    else next.delete(code);
    setTicked(next);
  };
  const allTicked = model.warnings.every((w) => ticked.has(w.code));
  return (
    <div className="score-proposal" data-proposal={model.version}>
      <h3>
        Proposed: version {model.version} ({weightsName(model.weights.version)})
      </h3>
      <p className="score-models-muted">
        Proposed {when(model.created_at)}
        {model.created_by ? ` by ${model.created_by}` : ""}
        {m ? `, fitted on ${labelsText(m.labels)}.` : "."}
      </p>
      {m && m.compared_with !== inForce && (
        <p className="message score-models-stale" role="status">
          Compared with {weightsName(m.compared_with)}, which is no longer in force: propose again
          for a fresh comparison.
        </p>
      )}
      {m && (
        <>
          <table className="score-models-table" data-backtest>
            <thead>
              <tr>
                <th scope="col">On your history</th>
                <th scope="col">Current ({weightsName(m.compared_with)})</th>
                <th scope="col">Proposed</th>
              </tr>
            </thead>
            <tbody>
              {backtestRows(m).map((row) => (
                <tr key={row.key} data-row={row.key}>
                  <th scope="row">{row.label}</th>
                  <td>{row.current}</td>
                  <td>{row.proposed}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="score-models-muted">
            Labelled screenings are judged by {m.folds}-fold cross-validation: each one is scored by
            weights fitted without it. Both sides use the rules and the thresholds in force
            {thresholds
              ? ` (${thresholds}).`
              : ": none is, so only the rules stop screenings and the weights change only the points."}
          </p>
          {m.changes.length > 0 && (
            <table className="score-models-table" data-changes>
              <caption>Biggest weight changes, in points per unit of the signal</caption>
              <TableHead columns={["Signal", "Now", "Proposed"]} />
              <tbody>
                {m.changes.slice(0, CHANGES_SHOWN).map((c) => (
                  <tr key={c.signal} data-signal={c.signal}>
                    <th scope="row">{signalName(c.signal)}</th>
                    <td>{pointsText(c.from)}</td>
                    <td>{pointsText(c.to)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {model.warnings.length > 0 && (
        <div className="score-proposal-warnings" data-warnings>
          <h4>{warningsText(model.warnings.length)}</h4>
          {model.warnings.map((w) => (
            <div key={w.code} className="score-proposal-warning" data-warning={w.code}>
              <strong>{WARNING_TEXT[w.code].title}</strong>
              <p>{w.message}</p>
            </div>
          ))}
        </div>
      )}
      {!confirming && (
        <button type="button" onClick={onAdopt}>
          Adopt version {model.version}…
        </button>
      )}
      {confirming && (
        <div className="score-models-confirm" data-confirm-adopt>
          <p>
            Score every screening with version {model.version} from the next one on? You can roll
            back at any time.
          </p>
          {model.warnings.map((w) => (
            <label key={w.code} className="score-models-tick" data-confirm-warning={w.code}>
              <input
                type="checkbox"
                checked={ticked.has(w.code)}
                onChange={(event) => tick(w.code, event.target.checked)}
              />
              {WARNING_TEXT[w.code].confirm} ({WARNING_TEXT[w.code].title.toLowerCase()})
            </label>
          ))}
          <button
            type="button"
            disabled={adopting || !allTicked}
            onClick={() => onConfirm(model.warnings.map((w) => w.code))}
          >
            Adopt
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setTicked(new Set());
              onCancel();
            }}
          >
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}

const STATUS: Record<ScoreModelView["status"], string> = {
  proposed: "Proposed",
  adopted: "In force",
  retired: "Retired",
};

function History({ models }: { models: ScoreModelView[] }) {
  return (
    <table className="score-models-table score-models-history" data-history>
      <caption>Versions</caption>
      <TableHead
        columns={["Version", "Status", "Proposed", "Adopted", "Labelled fraud caught, proposed"]}
      />
      <tbody>
        {models.map((model) => {
          const m = model.metrics;
          const caught = m
            ? m.labelled.proposed.fraud.blocked + m.labelled.proposed.fraud.reviewed
            : null;
          const confirmed = confirmedText(model.confirmed_warnings);
          return (
            <tr key={model.id} data-version={model.version} data-status={model.status}>
              <th scope="row">{model.weights.version}</th>
              <td>{STATUS[model.status]}</td>
              <td>
                {when(model.created_at)}
                {model.created_by && <small> by {model.created_by}</small>}
              </td>
              <td>
                {when(model.adopted_at)}
                {model.adopted_by && <small> by {model.adopted_by}</small>}
                {confirmed && <small data-confirmed>, {confirmed}</small>}
              </td>
              <td>{m && caught !== null ? share(caught, m.labels.fraud) : "–"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
