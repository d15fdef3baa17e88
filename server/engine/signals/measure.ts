/** What every group of signals shares: the event it reads and how it reports a signal. */
import { DAY, HOUR, MINUTE } from "../counting.ts";
import type { EventSubject, Features, Policy } from "../types.ts";
import type { SignalKey } from "./declarations.ts";

/** Reports one signal: added when its value is finite and not 0. */
export type Emit = (signal: SignalKey, value: number, detail: string) => void;

/** One event as a group of signals reads it. */
export type Measuring = {
  subject: EventSubject;
  policy: Policy;
  features: Features;
  add: Emit;
};

/** log2(1 + n), capped: 1 → 1, 3 → 2, 7 → 3, 15 → 4. */
export function logCount(n: number, cap = 4): number {
  return Math.min(cap, Math.log2(1 + Math.max(0, n)));
}

/** "s" unless one: `${n} account${plural(n)}`. */
export function plural(n: number): string {
  return n === 1 ? "" : "s";
}

/** "under a minute", "3 min", "5 h", "12 days". */
export function ageText(ms: number): string {
  if (ms < MINUTE) return "under a minute";
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} days`;
}

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function hostOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}
