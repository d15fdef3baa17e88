/** A list of on/off switches (rules, templates); `extra` renders beside an item (the threshold). */
import type { ReactNode } from "react";
import "./console.css";

export type ToggleItem<K extends string> = { key: K; label: string; note?: string };

type Props<K extends string> = {
  items: readonly ToggleItem<K>[];
  values: Record<K, boolean>;
  onToggle: (key: K) => void;
  extra?: (key: K) => ReactNode;
  label?: string;
};

export function ToggleList<K extends string>({ items, values, onToggle, extra, label }: Props<K>) {
  return (
    <ul className="toggle-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.key} className="toggle-item">
          <label className="toggle">
            <input
              type="checkbox"
              role="switch"
              name={item.key}
              checked={values[item.key]}
              aria-checked={values[item.key]}
              onChange={() => onToggle(item.key)}
            />
            <span className="toggle-track" aria-hidden="true" />
            <span className="toggle-label">{item.label}</span>
          </label>
          {item.note && <span className="badge">{item.note}</span>}
          {extra?.(item.key)}
        </li>
      ))}
    </ul>
  );
}
