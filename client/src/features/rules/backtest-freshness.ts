/**
 * What "Test on history" says about its own result: when it ran and with which settings
 * ("Tested 2 min ago with the settings saved at 14:02"), so an old result is never read as
 * one about the settings on the page now.
 */
import type { BacktestJob } from "../../../../shared/schemas/backtest.ts";

const MINUTE = 60_000;

/** "just now", "5 min ago", "3 h ago", or the day and time for anything older than a day. */
export function ago(iso: string, now: number, timeZone?: string): string {
  const ms = Math.max(0, now - Date.parse(iso));
  if (ms < MINUTE) return "just now";
  if (ms < 60 * MINUTE) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < 24 * 60 * MINUTE) return `${Math.floor(ms / (60 * MINUTE))} h ago`;
  return `on ${clock(iso, now, timeZone)}`;
}

/** "14:02" today, "Nov 24, 14:02" on another day (local time, or `timeZone`). */
export function clock(iso: string, now: number, timeZone?: string): string {
  const at = new Date(iso);
  const time = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(at);
  const day = (date: Date) =>
    new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone }).format(date);
  return day(at) === day(new Date(now)) ? time : `${day(at)}, ${time}`;
}

type Job = NonNullable<BacktestJob>;

/** Which settings the job ran: the saved ones (and when they were saved), plus its unsaved changes. */
export function settingsText(job: Job, now: number, timeZone?: string): string {
  const saved = job.settingsSavedAt
    ? `the settings saved at ${clock(job.settingsSavedAt, now, timeZone)}`
    : "the default settings (none saved yet)";
  return job.unsaved.length > 0
    ? `${saved}, with unsaved changes to ${job.unsaved.join("; ")}`
    : saved;
}

/** The line above a result: "Tested 2 min ago with the settings saved at 14:02." */
export function testedText(job: Job, now: number, timeZone?: string): string {
  const when = ago(job.finishedAt ?? job.startedAt, now, timeZone);
  return `Tested ${when} with ${settingsText(job, now, timeZone)}.`;
}
