/**
 * The alerts set on the account: each by its name, what it watches and when it fires, its
 * window and channels, whether it is firing; with a switch, Edit, Send a test and Remove
 * (after a confirmation) for a member who may change the configuration, and none of them for
 * one who may not.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { AlertView } from "../../../../shared/schemas/alerts.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { switched } from "./alert-drafts.ts";
import {
  channelsText,
  cooldownText,
  triggerText,
  watchedText,
  windowText,
} from "./alert-format.ts";

type Props = {
  alerts: AlertView[];
  mayChange: boolean;
  editing: string | null;
  onEdit: (alert: AlertView) => void;
  onChanged: () => Promise<unknown>;
};

export function AlertList({ alerts, mayChange, editing, onEdit, onChanged }: Props) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const update = useMutation(trpc.alerts.update.mutationOptions({ onSettled: onChanged }));
  const remove = useMutation(
    trpc.alerts.remove.mutationOptions({
      onSuccess: () => setConfirming(null),
      onSettled: onChanged,
    }),
  );
  const test = useMutation(
    trpc.alerts.test.mutationOptions({
      onSuccess: (event) => setTested(event.alert_id),
      onSettled: onChanged,
    }),
  );

  if (alerts.length === 0) return <p className="config-note">No alerts set.</p>;
  return (
    <>
      <ul className="al-list" aria-label="Alerts">
        {alerts.map((alert) => (
          <li
            key={alert.id}
            data-alert={alert.id}
            data-firing={alert.firing}
            className={editing === alert.id ? "al-editing" : undefined}
          >
            <div className="al-head">
              {mayChange ? (
                <label className="toggle">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={alert.enabled}
                    aria-checked={alert.enabled}
                    disabled={update.isPending}
                    onChange={() =>
                      update.mutate({ id: alert.id, alert: switched(alert, !alert.enabled) })
                    }
                  />
                  <span className="toggle-track" aria-hidden="true" />
                  <span className="toggle-label">{alert.name}</span>
                </label>
              ) : (
                <strong>{alert.name}</strong>
              )}
              {!mayChange && (
                <span className={`badge ${alert.enabled ? "al-on" : "al-off"}`}>
                  {alert.enabled ? "On" : "Off"}
                </span>
              )}
              {alert.firing && <span className="al-kind tone-red">Firing</span>}
            </div>
            <p className="al-what">
              Watches {watchedText(alert)}: fires {triggerText(alert)}
              {windowText(alert) ? ` ${windowText(alert)}` : ""},{" "}
              {cooldownText(alert.cooldown_minutes)}.
            </p>
            <p className="al-channels config-note">{channelsText(alert)}</p>
            {alert.last_fired_at && (
              <p className="config-note al-last">
                Last fired {new Date(alert.last_fired_at).toLocaleString()}
              </p>
            )}
            {mayChange && (
              <div className="al-actions">
                <button type="button" className="secondary" onClick={() => onEdit(alert)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="secondary"
                  disabled={test.isPending}
                  onClick={() => {
                    setTested(null);
                    test.mutate({ id: alert.id });
                  }}
                >
                  Send a test
                </button>
                {confirming === alert.id ? (
                  <span className="al-confirm">
                    <span>Remove “{alert.name}”? Its past events stay.</span>
                    <button
                      type="button"
                      className="al-danger"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ id: alert.id })}
                    >
                      Yes, remove
                    </button>
                    <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setConfirming(alert.id)}
                  >
                    Remove
                  </button>
                )}
              </div>
            )}
            {tested === alert.id && (
              <p className="message success" role="status">
                Test sent: see its answers under History.
              </p>
            )}
          </li>
        ))}
      </ul>
      <ErrorMessage error={update.error ?? remove.error ?? test.error} />
    </>
  );
}
