/**
 * Beside a rule a template turns on, after its switch was pressed: the switch alone cannot stop
 * it, so this says so and offers to turn the templates off, naming every rule that stops too.
 */
import { useEffect, useRef } from "react";
import { ruleLabel, templateLabel } from "../../lib/rule-format.ts";
import type { SwitchOff } from "./switch-off.ts";

type Props = {
  label: string;
  off: Extract<SwitchOff, { through: "templates" }>;
  onTurnOff: () => void;
  onKeep: () => void;
};

export function TurnOffNote({ label, off, onTurnOff, onKeep }: Props) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  const templates = joined(off.templates.map(templateLabel));
  const those = off.templates.length === 1 ? "that template is" : "those templates are";
  return (
    <section className="turn-off-note" aria-label={`Turn off ${label}`}>
      <p>
        {label} runs as part of {templates}: its switch cannot stop it while {those} on.
      </p>
      <p>
        {off.alsoStops.length === 0
          ? `Turning off ${templates} stops only this rule; its other rules stay on.`
          : `Turning off ${templates} also stops ${joined(off.alsoStops.map(ruleLabel))}.`}
      </p>
      <div className="turn-off-actions">
        <button type="button" className="small" onClick={onTurnOff}>
          Turn off {templates}
        </button>
        <button type="button" ref={keep} className="small secondary" onClick={onKeep}>
          Keep it on
        </button>
      </div>
    </section>
  );
}

/** "A", "A and B", "A, B and C". */
function joined(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
