/**
 * Watches one form: when a person first touched it, pointer and key presses, the spread of
 * intervals between keys, pastes, and when it was submitted. Counts only, never what was typed.
 */
import type { Behavior } from "../../shared/schemas/collect.ts";

export type FormWatch = { snapshot(): Behavior; stop(): void };

/** Standard deviation of the gaps between times, or null under three times. */
export function intervalSpread(times: readonly number[]): number | null {
  if (times.length < 3) return null;
  const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
  const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
  const variance = gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length;
  return Math.round(Math.sqrt(variance) * 10) / 10;
}

const MAX_KEYS = 500;

export function watchForm(form: HTMLFormElement, clock = () => performance.now()): FormWatch {
  let first: number | null = null;
  let submitted: number | null = null;
  let pointer = 0;
  let pastes = 0;
  const keys: number[] = [];
  let keyCount = 0;

  const touch = () => {
    first ??= clock();
  };
  const onKey = () => {
    touch();
    keyCount++;
    if (keys.length < MAX_KEYS) keys.push(clock());
  };
  const onPointer = (event: Event) => {
    pointer++;
    if (event.type === "pointerdown" && form.contains(event.target as Node)) touch();
  };
  const onPaste = () => {
    touch();
    pastes++;
  };
  const onSubmit = () => {
    submitted = clock();
  };
  const listeners: [EventTarget, string, (event: Event) => void][] = [
    [form, "keydown", onKey],
    [form, "focusin", touch],
    [form, "paste", onPaste],
    [form, "submit", onSubmit],
    [document, "pointermove", onPointer],
    [document, "pointerdown", onPointer],
  ];
  for (const [target, type, listener] of listeners) {
    target.addEventListener(type, listener, { capture: true, passive: true });
  }

  return {
    snapshot() {
      const end = submitted ?? clock();
      return {
        time_to_submit_ms: first === null ? null : Math.max(0, Math.round(end - first)),
        pointer_events: pointer,
        key_events: keyCount,
        key_interval_sd_ms: intervalSpread(keys),
        paste_count: pastes,
      };
    },
    stop() {
      for (const [target, type, listener] of listeners) {
        target.removeEventListener(type, listener, { capture: true });
      }
    },
  };
}
